package fleet

import (
	"context"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/redis/go-redis/v9"
)

// TestRedisTimeoutAdapts: the timeout starts at FirstRedisTimeout and
// follows the answers Redis gives, between MinRedisTimeout and its ceiling: a Redis answering in 300ms under
// load is waited for, not taken for unreachable.
func TestRedisTimeoutAdapts(t *testing.T) {
	r := newRedisLatency(time.Second)
	if got := r.current(); got != FirstRedisTimeout {
		t.Errorf("before any answer: %s, want %s", got, FirstRedisTimeout)
	}
	for range 20 {
		r.observe(time.Millisecond)
	}
	if got := r.current(); got != MinRedisTimeout {
		t.Errorf("after fast answers: %s, want the floor %s", got, MinRedisTimeout)
	}
	for range 20 {
		r.observe(300 * time.Millisecond) // a loaded machine
	}
	if got := r.current(); got <= 300*time.Millisecond || got > time.Second {
		t.Errorf("after 300ms answers: %s, want more than 300ms and at most the ceiling of 1s", got)
	}
	for range 20 {
		r.observe(5 * time.Second)
	}
	if got := r.current(); got != time.Second {
		t.Errorf("after 5s answers: %s, want the ceiling of 1s", got)
	}
}

// slowRedis delays the answer to every command, as a loaded machine
// delays Redis's answers: the command has run when the answer comes.
type slowRedis struct{ delay time.Duration }

func (slowRedis) DialHook(next redis.DialHook) redis.DialHook { return next }

func (s slowRedis) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		time.Sleep(s.delay)
		return err
	}
}

func (slowRedis) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestSlowRedisIsWaitedFor: Redis answers every call in 150ms. With a
// fixed RedisTimeout of 100ms every acquire falls back to the local limit
// though Redis is up; the adaptive timeout learns the latency from the
// late answers and the limiter stays on Redis.
func TestSlowRedisIsWaitedFor(t *testing.T) {
	key, client := setup(t)
	var logs testsvc.SyncBuffer
	cfg := Config{Key: key, Limit: 5, LocalLimit: 1, LeaseTTL: 10 * time.Second, RetryRedisEvery: time.Millisecond, Logger: quietLogger(&logs)}
	acquire := func(l *Limiter[Payments]) bool {
		lease, err := l.Acquire(context.Background())
		if err != nil {
			t.Fatalf("Acquire: %v", err)
		}
		lease.Release()
		return lease.Local()
	}

	fixed := cfg
	fixed.RedisTimeout = 100 * time.Millisecond
	rdb := client()
	warm(t, rdb)
	rdb.AddHook(slowRedis{150 * time.Millisecond})
	l := mustNew(t, rdb, fixed)
	for range 3 {
		if !acquire(l) {
			t.Fatal("a Redis lease though every answer outlasts a fixed RedisTimeout of 100ms")
		}
	}

	rdb = client()
	warm(t, rdb)
	rdb.AddHook(slowRedis{150 * time.Millisecond})
	l = mustNew(t, rdb, cfg)
	testsvc.WaitFor(t, "the adaptive timeout to learn Redis's latency", func() bool { return !acquire(l) })
	// The timeout is about twice the latency: on a loaded machine one
	// answer may still come later than that, but not most.
	local := 0
	for range 10 {
		if acquire(l) {
			local++
		}
	}
	t.Logf("RedisTimeout adapted to %s; %d of 10 acquires after that fell back", l.Stats().RedisTimeout, local)
	if local > 2 {
		t.Errorf("%d of 10 acquires fell back to the local limit after the limiter learnt Redis's latency", local)
	}
}
