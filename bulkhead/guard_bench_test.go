package bulkhead_test

// What a lane pays for the optional guards: a circuit breaker
// (lanebreaker, on failsafe-go) and a MaxRunTime. Lanes without them run
// the paths of BenchmarkUncontended and BenchmarkRejection.

import (
	"context"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanebreaker"
)

type benchRunTime struct{}

func (benchRunTime) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 100, MaxRunTime: 10 * time.Second}
}

func mustBreaker(b *testing.B) *lanebreaker.Breaker {
	br, err := lanebreaker.New(lanebreaker.Config{})
	if err != nil {
		b.Fatal(err)
	}
	return br
}

func BenchmarkGuarded(b *testing.B) {
	ctx := context.Background()
	run := func(b *testing.B, do func(context.Context, func(context.Context) error) error) {
		b.ReportAllocs()
		for b.Loop() {
			if err := do(ctx, noop); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("Do+breaker", func(b *testing.B) {
		run(b, bulkhead.MustExecutor[benchWide](bulkhead.WithBreaker(mustBreaker(b))).Do)
	})
	b.Run("Do+MaxRunTime", func(b *testing.B) {
		run(b, bulkhead.MustExecutor[benchRunTime]().Do)
	})
	b.Run("rejected-breaker-open", func(b *testing.B) {
		br := mustBreaker(b)
		e := bulkhead.MustExecutor[benchWide](bulkhead.WithBreaker(br))
		br.Open()
		b.ReportAllocs()
		for b.Loop() {
			if err := e.Do(ctx, noop); err == nil {
				b.Fatal("not rejected")
			}
		}
	})
}
