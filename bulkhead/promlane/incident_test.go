package promlane_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/fakeclock"
	"github.com/bhlint/bhlint/bulkhead/lanebreaker"
	"github.com/bhlint/bhlint/bulkhead/promlane"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

type Vendor struct{}

func (Vendor) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 2, Baseline: 1, MaxRunTime: 10 * time.Second}
}

// blocked runs a call that returns err once the test sends it (or, if
// its context ends first, the context's error).
func blocked(e *bulkhead.Executor[Vendor]) (finish chan error, done chan error) {
	finish, done, entered := make(chan error), make(chan error, 1), make(chan struct{})
	go func() {
		done <- e.Do(context.Background(), func(ctx context.Context) error {
			close(entered)
			select {
			case err := <-finish:
				return err
			case <-ctx.Done():
				<-finish
				return ctx.Err()
			}
		})
	}()
	<-entered
	return finish, done
}

// An incident in one lane as its metrics tell it: the breaker opens and
// sheds, a call gets stuck, and the lane lags in recovering.
func TestCollectorIncidentMetrics(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 9, 15, 12, 0, 0, 0, time.UTC))
	col := promlane.New(promlane.Opts{})
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(col)
	b, err := lanebreaker.New(lanebreaker.Config{})
	if err != nil {
		t.Fatal(err)
	}
	e := bulkhead.MustExecutor[Vendor](bulkhead.WithObserver(col), bulkhead.WithClock(clock), bulkhead.WithBreaker(b),
		bulkhead.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))

	// Both slots taken: SATURATED. One call is stuck past MaxRunTime.
	f1, d1 := blocked(e)
	f2, d2 := blocked(e)
	clock.Advance(10 * time.Second)
	f1 <- nil
	<-d1 // cancelled at MaxRunTime: a failure; 1 running, at the baseline
	for range 19 {
		_ = e.Do(context.Background(), func(context.Context) error { return errors.New("vendor down") })
	}
	_ = e.Do(context.Background(), func(context.Context) error { return nil }) // refused: open
	b.Close()                                                                  // an operator closes it: the dependency answers
	clock.Advance(10 * time.Second)                                            // the stuck call still holds its slot: lag

	want := `
# HELP bulkhead_breaker_state The lane's circuit breaker: 1 for the current state (closed, open, half_open), 0 for the others; closed for a lane without one.
# TYPE bulkhead_breaker_state gauge
bulkhead_breaker_state{lane="vendor",state="closed"} 1
bulkhead_breaker_state{lane="vendor",state="half_open"} 0
bulkhead_breaker_state{lane="vendor",state="open"} 0
# HELP bulkhead_breaker_transitions_total Changes of the lane's circuit breaker state, by the state entered.
# TYPE bulkhead_breaker_transitions_total counter
bulkhead_breaker_transitions_total{lane="vendor",to="closed"} 1
bulkhead_breaker_transitions_total{lane="vendor",to="half_open"} 0
bulkhead_breaker_transitions_total{lane="vendor",to="open"} 1
# HELP bulkhead_recovery_lag_total Times the lane reported recovery lag (ALERT_BULKHEAD_RECOVERY_LAG) and reset its pools.
# TYPE bulkhead_recovery_lag_total counter
bulkhead_recovery_lag_total{lane="vendor"} 1
# HELP bulkhead_recovery_lagging 1 while the lane reports recovery lag (ALERT_BULKHEAD_RECOVERY_LAG): its dependency answers again but the lane is not back below its baseline.
# TYPE bulkhead_recovery_lagging gauge
bulkhead_recovery_lagging{lane="vendor"} 1
# HELP bulkhead_stuck_calls Calls running past the lane's MaxRunTime now: cancelled, their slots held until they return.
# TYPE bulkhead_stuck_calls gauge
bulkhead_stuck_calls{lane="vendor"} 1
# HELP bulkhead_stuck_total Calls that ran past the lane's MaxRunTime and were cancelled.
# TYPE bulkhead_stuck_total counter
bulkhead_stuck_total{lane="vendor"} 2
`
	names := []string{"bulkhead_breaker_state", "bulkhead_breaker_transitions_total", "bulkhead_recovery_lag_total",
		"bulkhead_recovery_lagging", "bulkhead_stuck_calls", "bulkhead_stuck_total"}
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}
	if got := testutil.ToFloat64(rejections(reg, t)); got != 1 {
		t.Errorf("breaker_open rejections = %v; want 1", got)
	}

	f2 <- nil
	<-d2
	if s := e.Stats(); s.Lagging || s.Stuck != 0 || s.Active != 0 {
		t.Errorf("after the stuck call returned: %+v", s)
	}
}

func rejections(reg *prometheus.Registry, t *testing.T) prometheus.Collector {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "x"})
	for _, mf := range mfs {
		if mf.GetName() != "bulkhead_rejections_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "reason" && l.GetValue() == "breaker_open" {
					g.Set(m.GetCounter().GetValue())
				}
			}
		}
	}
	return g
}
