package fleet

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/redis/go-redis/v9"
)

// TestFailClosedGivesNoLeaseWithoutRedis: with PartitionFailClosed (and no
// LocalLimit) a limiter cut off from Redis refuses every lease, saying
// Redis is unreachable, and gives leases again once Redis answers.
func TestFailClosedGivesNoLeaseWithoutRedis(t *testing.T) {
	key, _ := setup(t)
	proxy, rdb := viaProxy(t, redis.Options{MaxRetries: -1})
	var logs testsvc.SyncBuffer
	warm(t, rdb)
	l := mustNew(t, rdb, Config{Key: key, Limit: 2, Partition: PartitionFailClosed, LeaseTTL: 10 * time.Second,
		RedisTimeout: 300 * time.Millisecond, RetryRedisEvery: time.Millisecond, Logger: quietLogger(&logs)})
	proxy.Cut()
	for range 3 {
		lease, err := l.Acquire(context.Background())
		var le *LimitError
		if !errors.As(err, &le) || !le.Unreachable || le.Local || !errors.Is(err, bulkhead.ErrRejected) ||
			!strings.Contains(err.Error(), "Redis is unreachable, and with Partition fail_closed") {
			if lease != nil {
				lease.Release()
			}
			t.Fatalf("Redis down, failing closed: %v, want an Unreachable LimitError", err)
		}
	}
	if s := l.Stats(); !s.Fallback || s.HeldLocal != 0 || !strings.Contains(logs.String(), "fails closed") {
		t.Errorf("stats %+v, logs %s", s, logs.String())
	}
	proxy.Heal()
	testsvc.WaitFor(t, "a lease from Redis again", func() bool {
		lease, err := l.Acquire(context.Background())
		if err != nil {
			return false
		}
		lease.Release()
		return !lease.Local()
	})
}

// TestFairSharesNeverAddUpToMoreThanTheLimit: three instances of a limit
// of 5 are allocated shares that add up to at most 5, each at least 1 once
// every instance has been heard from twice.
func TestFairSharesNeverAddUpToMoreThanTheLimit(t *testing.T) {
	key, client := setup(t)
	cfg := Config{Key: key, Limit: 5, Partition: PartitionFairShare, LeaseTTL: 10 * time.Second}
	ls := []*Limiter[Payments]{mustNew(t, client(), cfg), mustNew(t, client(), cfg), mustNew(t, client(), cfg)}
	for round := range 3 {
		sum := 0
		for _, l := range ls {
			lease, err := l.Acquire(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			lease.Release()
			sum += l.Stats().Share
		}
		if sum > 5 {
			t.Fatalf("round %d: shares add up to %d, over the limit of 5", round, sum)
		}
	}
	for i, l := range ls {
		if s := l.Stats().Share; s != 1 {
			t.Errorf("instance %d: share %d, want 1 (5 over 3 instances is 1, rounded down)", i, s)
		}
	}
}

func TestPartitionConfig(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1"})
	defer rdb.Close()
	for _, p := range []Partition{PartitionFailClosed, PartitionFairShare} {
		if _, err := New[Payments](rdb, Config{Limit: 2, Partition: p}); err != nil {
			t.Errorf("Partition %s without LocalLimit: %v", p, err)
		}
	}
	if _, err := New[Payments](rdb, Config{Limit: 2, LocalLimit: 1, Partition: 7}); err == nil || !strings.Contains(err.Error(), "unknown Partition") {
		t.Errorf("Partition 7: %v", err)
	}
}
