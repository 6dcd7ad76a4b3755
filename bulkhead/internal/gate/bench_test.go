package gate

import (
	"context"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// BenchmarkGate is the gate alone, without a driver: admitting and
// releasing with nobody waiting, and 8×GOMAXPROCS callers sharing 4 slots,
// where releases hand slots to queued waiters.
func BenchmarkGate(b *testing.B) {
	ctx := context.Background()
	for _, leak := range []struct {
		name      string
		threshold time.Duration
	}{{"", -1}, {"-leakwatch", time.Minute}} {
		b.Run("uncontended"+leak.name, func(b *testing.B) {
			g := newGate(b, lanepool.Config{MaxConns: 4, MaxWaiters: 1024, AcquireTimeout: time.Minute, LeakThreshold: leak.threshold})
			b.ReportAllocs()
			for b.Loop() {
				tk, _, err := g.Acquire(ctx, 0)
				if err != nil {
					b.Fatal(err)
				}
				tk.Release()
			}
		})
	}
	b.Run("contended", func(b *testing.B) {
		g := newGate(b, lanepool.Config{MaxConns: 4, MaxWaiters: 1024, AcquireTimeout: time.Minute, LeakThreshold: -1})
		b.ReportAllocs()
		b.SetParallelism(8)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				tk, _, err := g.Acquire(ctx, 0)
				if err != nil {
					b.Error(err)
					return
				}
				testsvc.Spin()
				tk.Release()
			}
		})
	})
}
