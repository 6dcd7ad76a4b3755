package bulkhead_test

// Benchmarks against golang.org/x/sync/semaphore and failsafe-go's bulkhead,
// in the same run. The results and their ratios are recorded in
// bench/RUNTIME_RESULTS.md at the repository root.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/failsafe-go/failsafe-go"
	fsbulkhead "github.com/failsafe-go/failsafe-go/bulkhead"
	"golang.org/x/sync/semaphore"
)

type benchOne struct{}

func (benchOne) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 1} }

type benchWide struct{}

func (benchWide) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 100} }

const contendedLimit = 4

type benchContended struct{}

func (benchContended) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: contendedLimit, MaxQueued: 1024, QueueTimeout: time.Minute}
}

func noop(context.Context) error { return nil }

// BenchmarkUncontended: one goroutine admits and releases, nobody waits.
func BenchmarkUncontended(b *testing.B) {
	ctx := context.Background()
	b.Run("bulkhead.Do", func(b *testing.B) {
		e := bulkhead.MustExecutor[benchWide]()
		b.ReportAllocs()
		for b.Loop() {
			if err := e.Do(ctx, noop); err != nil {
				b.Fatal(err)
			}
		}
	})
	// A lane of one slot and no queue is full, hence SATURATED, during every
	// call and RECOVERING after it: each call pays for two state changes.
	b.Run("bulkhead.Do-limit1", func(b *testing.B) {
		e := bulkhead.MustExecutor[benchOne]()
		b.ReportAllocs()
		for b.Loop() {
			if err := e.Do(ctx, noop); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("x-sync-semaphore", func(b *testing.B) {
		s := semaphore.NewWeighted(1)
		b.ReportAllocs()
		for b.Loop() {
			if err := s.Acquire(ctx, 1); err != nil {
				b.Fatal(err)
			}
			_ = noop(ctx)
			s.Release(1)
		}
	})
	b.Run("failsafe-permit", func(b *testing.B) {
		bh := fsbulkhead.New[any](1)
		b.ReportAllocs()
		for b.Loop() {
			if err := bh.AcquirePermit(ctx); err != nil {
				b.Fatal(err)
			}
			_ = noop(ctx)
			bh.ReleasePermit()
		}
	})
	b.Run("failsafe-Run", func(b *testing.B) {
		ex := failsafe.With[any](fsbulkhead.New[any](1))
		b.ReportAllocs()
		for b.Loop() {
			if err := ex.Run(func() error { return noop(ctx) }); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkContended: 8×GOMAXPROCS goroutines share 4 slots; every caller
// may wait (each limiter is given a long wait bound so none is rejected).
func BenchmarkContended(b *testing.B) {
	ctx := context.Background()
	b.Run("bulkhead.Do", func(b *testing.B) {
		e := bulkhead.MustExecutor[benchContended]()
		work := func(context.Context) error { testsvc.Spin(); return nil }
		b.ReportAllocs()
		b.SetParallelism(8)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := e.Do(ctx, work); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("x-sync-semaphore", func(b *testing.B) {
		s := semaphore.NewWeighted(contendedLimit)
		b.ReportAllocs()
		b.SetParallelism(8)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := s.Acquire(ctx, 1); err != nil {
					b.Error(err)
					return
				}
				testsvc.Spin()
				s.Release(1)
			}
		})
	})
	b.Run("failsafe-permit", func(b *testing.B) {
		bh := fsbulkhead.NewBuilder[any](contendedLimit).WithMaxWaitTime(time.Minute).Build()
		b.ReportAllocs()
		b.SetParallelism(8)
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := bh.AcquirePermitWithMaxWait(ctx, time.Minute); err != nil {
					b.Error(err)
					return
				}
				testsvc.Spin()
				bh.ReleasePermit()
			}
		})
	})
}

// fullLane returns an executor whose only slot is held until stop is called.
func fullLane(b *testing.B) (*bulkhead.Executor[benchOne], func()) {
	e := bulkhead.MustExecutor[benchOne]()
	held, release, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		_ = e.Do(context.Background(), func(context.Context) error { close(held); <-release; return nil })
	}()
	<-held
	return e, func() { close(release); <-done }
}

// BenchmarkRejection: the cost of turning work away from a full lane, with
// the p99 of single rejections measured one by one.
func BenchmarkRejection(b *testing.B) {
	ctx := context.Background()
	b.Run("bulkhead.Do", func(b *testing.B) {
		e, stop := fullLane(b)
		defer stop()
		lat := make([]time.Duration, 0, 1<<20)
		b.ReportAllocs()
		for b.Loop() {
			t0 := time.Now()
			err := e.Do(ctx, noop)
			if len(lat) < cap(lat) {
				lat = append(lat, time.Since(t0))
			}
			if err == nil {
				b.Fatal("not rejected")
			}
		}
		reportP99(b, lat)
	})
	b.Run("bulkhead.Do+Error", func(b *testing.B) { // a caller that also logs the message
		e, stop := fullLane(b)
		defer stop()
		b.ReportAllocs()
		for b.Loop() {
			if err := e.Do(ctx, noop); err == nil || err.Error() == "" {
				b.Fatal("not rejected")
			}
		}
	})
	b.Run("http-503-problem", func(b *testing.B) {
		e, stop := fullLane(b)
		defer stop()
		h := e.Handler(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
		r := httptest.NewRequest("POST", "/v1/tax", nil)
		b.ReportAllocs()
		for b.Loop() {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusServiceUnavailable {
				b.Fatal(w.Code)
			}
		}
	})
	b.Run("x-sync-semaphore-TryAcquire", func(b *testing.B) { // no error value at all
		s := semaphore.NewWeighted(1)
		s.TryAcquire(1)
		for b.Loop() {
			if s.TryAcquire(1) {
				b.Fatal("acquired")
			}
		}
	})
	b.Run("failsafe-permit-nowait", func(b *testing.B) {
		bh := fsbulkhead.New[any](1)
		bh.TryAcquirePermit()
		b.ReportAllocs()
		for b.Loop() {
			if err := bh.AcquirePermitWithMaxWait(ctx, 0); err == nil {
				b.Fatal("acquired")
			}
		}
	})
}

func reportP99(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}
