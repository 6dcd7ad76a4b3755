package fleet

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/redis/go-redis/v9"
)

// Partitions and hangs: a limiter whose Redis connection goes through a
// proxy the test cuts or hangs, next to limiters on a direct connection.

// viaProxy is a client of the test Redis through a proxy of the test's own.
// opts' Addr is set to the proxy's; the client is closed at the end.
func viaProxy(t *testing.T, opts redis.Options) (*testsvc.Proxy, *redis.Client) {
	t.Helper()
	proxy := testsvc.NewProxy(t, testsvc.RedisAddr(t))
	opts.Addr = proxy.Addr()
	c := redis.NewClient(&opts)
	t.Cleanup(func() { c.Close() })
	return proxy, c
}

// warm opens a connection of rdb and loads the scripts, so that a first
// call slowed down by -race or a loaded machine does not outlast a short
// RedisTimeout and send the limiter into its fallback.
func warm(t *testing.T, rdb *redis.Client) {
	t.Helper()
	ctx := context.Background()
	for _, s := range []*redis.Script{acquireScript, renewScript} {
		if err := s.Load(ctx, rdb).Err(); err != nil {
			t.Fatalf("loading a script: %v", err)
		}
	}
}

func quietLogger(buf *testsvc.SyncBuffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, nil))
}

// TestPartitionedHolderLosesItsLease: limit 2, LeaseTTL 600ms; holder A's
// connection to Redis is cut (or hangs), B takes both leases once they
// expire. A must learn it lost them while the
// partition lasts: Lost closes and Do's context is canceled, so the fleet
// does not have four holders against a limit of two.
func TestPartitionedHolderLosesItsLease(t *testing.T) {
	for _, mode := range []string{"cut", "hang"} {
		t.Run(mode, func(t *testing.T) {
			key, client := setup(t)
			proxy, rdb := viaProxy(t, redis.Options{}) // go-redis's defaults
			const ttl = 600 * time.Millisecond
			var logs testsvc.SyncBuffer
			// RedisTimeout is generous for a loaded machine under -race: a
			// slow answer before the partition would send A into fallback.
			cfg := Config{Key: key, Limit: 2, LocalLimit: 1, LeaseTTL: ttl, RedisTimeout: 300 * time.Millisecond, Logger: quietLogger(&logs)}
			rdbB := client()
			warm(t, rdb)
			warm(t, rdbB)
			a, b := mustNew(t, rdb, cfg), mustNew(t, rdbB, cfg)

			lease, err := a.Acquire(context.Background())
			if err != nil || lease.Local() {
				t.Fatalf("A's first lease: %v (local %v)", err, lease != nil && lease.Local())
			}
			working := make(chan struct{})
			done := make(chan error, 1)
			go func() {
				done <- a.Do(context.Background(), func(ctx context.Context) error {
					close(working)
					<-ctx.Done() // work that stops when told to
					return ctx.Err()
				})
			}()
			select {
			case <-working:
			case err := <-done:
				t.Fatalf("A's second lease: %v\n%s", err, logs.String())
			}

			if mode == "cut" {
				proxy.Cut()
			} else {
				proxy.Hang()
			}
			partitioned := time.Now()
			testsvc.WaitFor(t, "A's lease to be lost while the partition lasts", func() bool {
				select {
				case <-lease.Lost():
					return true
				default:
					return false
				}
			})
			lostAfter := time.Since(partitioned)
			var doErr error
			testsvc.WaitFor(t, "A's work to be canceled", func() bool {
				select {
				case doErr = <-done:
					return true
				default:
					return false
				}
			})
			if !errors.Is(doErr, context.Canceled) {
				t.Errorf("Do: %v, want context.Canceled", doErr)
			}
			var got []*Lease
			testsvc.WaitFor(t, "B to take the expired leases", func() bool {
				if l, err := b.Acquire(context.Background()); err == nil && l.Local() {
					l.Release() // B's Redis call was slow: not what this waits for
				} else if err == nil {
					got = append(got, l)
				}
				return len(got) == 2
			})
			t.Logf("A knew its leases were lost %s into the partition; B had both %s into it (LeaseTTL %s)",
				lostAfter.Round(time.Millisecond), time.Since(partitioned).Round(time.Millisecond), ttl)
			if s := a.Stats(); s.Lost != 2 {
				t.Errorf("A's stats: %+v, want 2 lost leases", s)
			}
			if !strings.Contains(logs.String(), "renewals failed for LeaseTTL") {
				t.Errorf("the loss was not logged: %s", logs.String())
			}
			lease.Release()
			for _, l := range got {
				l.Release()
			}
			proxy.Cut() // ends A's calls still waiting on a hung connection
		})
	}
}

// TestRedisTimeoutBoundsEveryCall: against a Redis
// that accepts connections and never answers, Release, Acquire and the
// re-probes of a limiter that fell back each return within RedisTimeout,
// whatever the client's own timeouts (here 30s; go-redis's defaults are
// 3-5s, and it does not apply context deadlines to its sockets).
func TestRedisTimeoutBoundsEveryCall(t *testing.T) {
	key, _ := setup(t)
	const slow = 30 * time.Second
	proxy, rdb := viaProxy(t, redis.Options{DialTimeout: slow, ReadTimeout: slow, WriteTimeout: slow})
	var logs testsvc.SyncBuffer
	warm(t, rdb)
	l := mustNew(t, rdb, Config{Key: key, Limit: 3, LocalLimit: 1, LeaseTTL: 10 * time.Second,
		RedisTimeout: 100 * time.Millisecond, RetryRedisEvery: 20 * time.Millisecond, Logger: quietLogger(&logs)})
	held, err := l.Acquire(context.Background())
	if err != nil || held.Local() {
		t.Fatalf("before the hang: %v", err)
	}
	proxy.Hang()
	bounded := func(what string, f func()) {
		t.Helper()
		start := time.Now()
		f()
		took := time.Since(start)
		t.Logf("%s against a hung Redis: %s", what, took.Round(time.Millisecond))
		if took > slow/6 { // a hang detector: RedisTimeout is 100ms, the client's timeouts 30s
			t.Fatalf("%s took %s; RedisTimeout is 100ms", what, took)
		}
	}
	bounded("Release", held.Release)
	var lease *Lease
	bounded("Acquire", func() { lease, err = l.Acquire(context.Background()) })
	if err != nil || !lease.Local() {
		t.Fatalf("Acquire against a hung Redis: %v, want a local lease", err)
	}
	for i := range 3 {
		time.Sleep(30 * time.Millisecond) // past RetryRedisEvery: the next Acquire asks Redis again
		bounded("re-probe "+string(rune('1'+i)), func() { _, err = l.Acquire(context.Background()) })
		var le *LimitError
		if !errors.As(err, &le) || !le.Local {
			t.Errorf("re-probe with the local limit full: %v, want a local LimitError", err)
		}
	}
	lease.Release()
	if s := l.Stats(); !s.Fallback || s.Fallbacks != 1 {
		t.Errorf("stats: %+v", s)
	}
	proxy.Cut() // ends the abandoned calls, which the client would wait 30s for
}

// TestFallbackCountsLeasesHeldFromRedis: limit 3,
// LocalLimit 1, this process holds three leases from Redis when Redis
// becomes unreachable. Those count against the local limit: no fourth
// lease, and a local one only once they are given back.
func TestFallbackCountsLeasesHeldFromRedis(t *testing.T) {
	key, _ := setup(t)
	proxy, rdb := viaProxy(t, redis.Options{MaxRetries: -1})
	var logs testsvc.SyncBuffer
	warm(t, rdb)
	l := mustNew(t, rdb, Config{Key: key, Limit: 3, LocalLimit: 1, LeaseTTL: 10 * time.Second, Logger: quietLogger(&logs)})
	var held []*Lease
	for range 3 {
		lease, err := l.Acquire(context.Background())
		if err != nil || lease.Local() {
			t.Fatalf("Redis up: %v", err)
		}
		held = append(held, lease)
	}
	proxy.Cut()
	for i := range 3 {
		lease, err := l.Acquire(context.Background())
		var le *LimitError
		if !errors.As(err, &le) || !le.Local || !strings.Contains(err.Error(), "local fallback limit of 1") {
			if lease != nil {
				lease.Release()
			}
			t.Fatalf("with %d Redis leases still held and Redis down: %v, want the local limit of 1 to be full", 3-i, err)
		}
		if i < 2 {
			held[i].Release()
		}
	}
	if s := l.Stats(); !s.Fallback || s.Held != 1 || s.HeldLocal != 0 {
		t.Errorf("stats: %+v, want fallback with one Redis lease held", s)
	}
	held[2].Release()
	lease, err := l.Acquire(context.Background())
	if err != nil || !lease.Local() {
		t.Fatalf("every Redis lease given back: %v, want a local lease", err)
	}
	lease.Release()
}

// TestOneProbeAtATime: while Redis hangs, concurrent callers of a limiter
// that fell back do not all wait RedisTimeout to ask Redis whether it is
// back: one asks, the others use the local limit at once.
func TestOneProbeAtATime(t *testing.T) {
	key, _ := setup(t)
	const slow = 30 * time.Second
	proxy, rdb := viaProxy(t, redis.Options{DialTimeout: slow, ReadTimeout: slow, WriteTimeout: slow})
	warm(t, rdb)
	var logs testsvc.SyncBuffer
	l := mustNew(t, rdb, Config{Key: key, Limit: 8, LocalLimit: 8, RedisTimeout: 100 * time.Millisecond,
		RetryRedisEvery: 200 * time.Millisecond, Logger: quietLogger(&logs)})
	proxy.Hang()
	first, err := l.Acquire(context.Background())
	if err != nil || !first.Local() {
		t.Fatalf("against a hung Redis: %v, want a local lease", err)
	}
	first.Release()
	testsvc.WaitFor(t, "the first call to be abandoned", func() bool { return l.calls.Load() == 1 })
	time.Sleep(250 * time.Millisecond) // past RetryRedisEvery: the next caller probes
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if lease, err := l.Acquire(context.Background()); err == nil {
				lease.Release()
			}
		}()
	}
	wg.Wait()
	// Abandoned calls stay in flight until the client's 30s: one from the
	// first Acquire, one from the probe.
	if n := l.calls.Load(); n != 2 {
		t.Errorf("%d Redis calls in flight, want 2: the first one and a single probe", n)
	}
	proxy.Cut()
}

// TestLocalLeasesCountWhenRedisIsBack: limit 2, this process holds a lease
// from the local fallback when Redis answers again. That lease is work in
// flight Redis does not list: it counts against the fleet limit, so the
// process gets one Redis lease, not two (three in flight against 2).
func TestLocalLeasesCountWhenRedisIsBack(t *testing.T) {
	key, _ := setup(t)
	proxy, rdb := viaProxy(t, redis.Options{MaxRetries: -1})
	var logs testsvc.SyncBuffer
	warm(t, rdb)
	l := mustNew(t, rdb, Config{Key: key, Limit: 2, LocalLimit: 1, LeaseTTL: 10 * time.Second,
		RedisTimeout: 300 * time.Millisecond, RetryRedisEvery: time.Millisecond, Logger: quietLogger(&logs)})
	proxy.Cut()
	local, err := l.Acquire(context.Background())
	if err != nil || !local.Local() {
		t.Fatalf("Redis down: %v, want a local lease", err)
	}
	proxy.Heal()
	var got []*Lease
	testsvc.WaitFor(t, "the limiter to be back on Redis", func() bool {
		lease, err := l.Acquire(context.Background())
		if err == nil && !lease.Local() {
			got = append(got, lease)
		} else if err == nil {
			lease.Release()
		}
		return len(got) > 0
	})
	if lease, err := l.Acquire(context.Background()); err == nil {
		got = append(got, lease)
		t.Errorf("a second Redis lease (local %v) with a local lease still held: %d in flight against a fleet limit of 2", lease.Local(), 1+len(got))
	}
	local.Release()
	for _, lease := range got {
		lease.Release()
	}
	lease, err := l.Acquire(context.Background())
	if err != nil || lease.Local() {
		t.Fatalf("the local lease given back: %v, want a Redis lease", err)
	}
	lease.Release()
}
