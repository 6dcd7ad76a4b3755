package promlane_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/fakeclock"
	"github.com/bhlint/bhlint/bulkhead/promlane"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type Tax struct{}

func (Tax) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 1, MaxQueued: 1, QueueTimeout: 250 * time.Millisecond}
}

func TestCollector(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 9, 15, 12, 0, 0, 0, time.UTC))
	col := promlane.New(promlane.Opts{Buckets: []float64{0.1, 1}})
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(col)
	tax := bulkhead.MustExecutor[Tax](bulkhead.WithObserver(col), bulkhead.WithClock(clock))

	// One call holds the slot, one queues and times out after 250 ms,
	// one is turned away while the lane is SATURATED.
	entered, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		_ = tax.Do(context.Background(), func(context.Context) error { close(entered); <-release; return nil })
	}()
	<-entered
	go func() {
		defer wg.Done()
		_ = tax.Do(context.Background(), func(context.Context) error { return nil })
	}()
	for tax.Stats().Queued != 1 {
		time.Sleep(time.Millisecond)
	}
	_ = tax.Do(context.Background(), func(context.Context) error { return nil })

	want := `
# HELP bulkhead_active_calls Calls running in the lane now.
# TYPE bulkhead_active_calls gauge
bulkhead_active_calls{lane="tax"} 1
# HELP bulkhead_queued_calls Callers waiting for a slot in the lane now.
# TYPE bulkhead_queued_calls gauge
bulkhead_queued_calls{lane="tax"} 1
# HELP bulkhead_state The lane's state: 1 for the current one (NORMAL, SATURATED, RECOVERING), 0 for the others.
# TYPE bulkhead_state gauge
bulkhead_state{lane="tax",state="NORMAL"} 0
bulkhead_state{lane="tax",state="RECOVERING"} 0
bulkhead_state{lane="tax",state="SATURATED"} 1
# HELP bulkhead_rejections_total Work the lane rejected without starting it, by reason.
# TYPE bulkhead_rejections_total counter
bulkhead_rejections_total{lane="tax",reason="breaker_open"} 0
bulkhead_rejections_total{lane="tax",reason="deadline"} 0
bulkhead_rejections_total{lane="tax",reason="queue_full"} 1
bulkhead_rejections_total{lane="tax",reason="saturated"} 0
bulkhead_rejections_total{lane="tax",reason="wait_timeout"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"bulkhead_active_calls", "bulkhead_queued_calls", "bulkhead_state", "bulkhead_rejections_total"); err != nil {
		t.Error(err)
	}

	clock.Advance(250 * time.Millisecond) // the waiter times out
	close(release)
	wg.Wait()

	want = `
# HELP bulkhead_queue_wait_seconds Time admitted work spent waiting for a slot; 0 when a slot was free.
# TYPE bulkhead_queue_wait_seconds histogram
bulkhead_queue_wait_seconds_bucket{lane="tax",le="0.1"} 1
bulkhead_queue_wait_seconds_bucket{lane="tax",le="1"} 1
bulkhead_queue_wait_seconds_bucket{lane="tax",le="+Inf"} 1
bulkhead_queue_wait_seconds_sum{lane="tax"} 0
bulkhead_queue_wait_seconds_count{lane="tax"} 1
# HELP bulkhead_rejections_total Work the lane rejected without starting it, by reason.
# TYPE bulkhead_rejections_total counter
bulkhead_rejections_total{lane="tax",reason="breaker_open"} 0
bulkhead_rejections_total{lane="tax",reason="deadline"} 0
bulkhead_rejections_total{lane="tax",reason="queue_full"} 1
bulkhead_rejections_total{lane="tax",reason="saturated"} 0
bulkhead_rejections_total{lane="tax",reason="wait_timeout"} 1
# HELP bulkhead_state_transitions_total Changes of the lane's state, by the state entered.
# TYPE bulkhead_state_transitions_total counter
bulkhead_state_transitions_total{lane="tax",to="NORMAL"} 0
bulkhead_state_transitions_total{lane="tax",to="RECOVERING"} 1
bulkhead_state_transitions_total{lane="tax",to="SATURATED"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"bulkhead_queue_wait_seconds", "bulkhead_rejections_total", "bulkhead_state_transitions_total"); err != nil {
		t.Error(err)
	}

	problems, err := testutil.GatherAndLint(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("metric naming: %s: %s", p.Metric, p.Text)
	}
}

// Two executors of one lane type add up instead of clashing at scrape time.
func TestCollectorSumsExecutorsOfOneLane(t *testing.T) {
	col := promlane.New(promlane.Opts{})
	bulkhead.MustExecutor[Tax](bulkhead.WithObserver(col))
	bulkhead.MustExecutor[Tax](bulkhead.WithObserver(col))
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(col)
	want := `
# HELP bulkhead_max_concurrent_calls How many calls the lane may run at once.
# TYPE bulkhead_max_concurrent_calls gauge
bulkhead_max_concurrent_calls{lane="tax"} 2
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "bulkhead_max_concurrent_calls"); err != nil {
		t.Error(err)
	}
}
