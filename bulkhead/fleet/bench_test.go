package fleet

import (
	"context"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/redis/go-redis/v9"
)

// BenchmarkFleet measures a lease taken and given back (two Redis round
// trips: the acquire script and ZREM) and a rejection at the fleet limit
// (one round trip), on the test Redis.
func BenchmarkFleet(b *testing.B) {
	addr := testsvc.RedisAddr(b)
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer rdb.Close()
	ctx := context.Background()
	key := "bhlint:bench:" + testsvc.Suffix + ":" + b.Name()
	defer rdb.Del(ctx, key)
	l, err := New[Payments](rdb, Config{Key: key, Limit: 1, LocalLimit: 1, LeaseTTL: 10 * time.Second, RedisTimeout: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("acquire-release", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			lease, err := l.Acquire(ctx)
			if err != nil {
				b.Fatal(err)
			}
			lease.Release()
		}
	})
	held, err := l.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer held.Release()
	b.Run("rejection", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := l.Acquire(ctx); err == nil {
				b.Fatal("a second lease on a limit of 1")
			}
		}
	})
}
