package bulkhead

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/fakeclock"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
)

// laggy: 10 slots, no queue, back to baseline below 3 running calls.
type laggy struct{}

func (laggy) Spec() LaneSpec {
	return LaneSpec{Name: "laggy", MaxConcurrent: 10, Baseline: 3}
}

// countingReset counts the resets a lane asks for.
type countingReset struct{ n atomic.Int32 }

func (r *countingReset) ResetPool(context.Context) error { r.n.Add(1); return nil }

// lagRig is a laggy lane full of calls the test ends one by one.
type lagRig struct {
	t      *testing.T
	clock  *fakeclock.Clock
	e      *Executor[laggy]
	events *recorder
	logs   *testsvc.SyncBuffer
	reset  *countingReset
	wg     sync.WaitGroup
	calls  []*lagCall
}

type lagCall struct {
	result chan error // what the work returns
	done   chan error
}

func newLagRig(t *testing.T) *lagRig {
	r := &lagRig{t: t, clock: fakeclock.New(epoch), events: &recorder{}, logs: &testsvc.SyncBuffer{}, reset: &countingReset{}}
	r.e = MustExecutor[laggy](WithClock(r.clock), WithObserver(r.events),
		WithLogger(slog.New(slog.NewTextHandler(r.logs, nil))))
	r.e.ResetOnRecoveryLag(r.reset)
	t.Cleanup(func() {
		for range r.calls {
			r.end(nil)
		}
		r.wg.Wait()
	})
	return r
}

// fill starts calls until every slot is busy: the lane turns SATURATED.
func (r *lagRig) fill() { r.fillTo(10) }

// fillTo starts calls until n run.
func (r *lagRig) fillTo(n int) {
	for len(r.calls) < n {
		c := &lagCall{result: make(chan error), done: make(chan error, 1)}
		entered := make(chan struct{})
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			c.done <- r.e.Do(context.Background(), func(context.Context) error {
				close(entered)
				return <-c.result
			})
		}()
		<-entered
		r.calls = append(r.calls, c)
	}
	if s := r.e.Stats(); n == 10 && s.State != StateSaturated {
		r.t.Fatalf("state %v after filling the lane", s.State)
	}
}

// end lets the oldest running call return err and waits until it has.
func (r *lagRig) end(err error) {
	c := r.calls[0]
	r.calls = r.calls[1:]
	c.result <- err
	<-c.done
}

func TestRecoveryLagAlertsResetsAndEnds(t *testing.T) {
	r := newLagRig(t)
	r.fill()
	r.end(nil) // the dependency answers normally: the lag clock starts
	r.clock.Advance(10*time.Second - time.Nanosecond)
	if n := len(r.events.of(EventRecoveryLag)); n != 0 {
		t.Fatalf("alert before RecoveryLag had passed")
	}
	r.clock.Advance(time.Nanosecond)

	lag := r.events.of(EventRecoveryLag)
	if len(lag) != 1 || lag[0].Active != 9 || lag[0].Wait != 10*time.Second {
		t.Fatalf("EventRecoveryLag = %+v; want one, with Active 9 and Wait 10s", lag)
	}
	if !r.e.Stats().Lagging {
		t.Error("Stats().Lagging is false during the lag")
	}
	if got := r.reset.n.Load(); got != 1 {
		t.Errorf("pools reset %d times; want 1", got)
	}
	if l := r.logs.String(); !strings.Contains(l, "level=ERROR msg="+AlertRecoveryLag) || !strings.Contains(l, "lane=laggy") {
		t.Errorf("log = %q; want an error line %s for the lane", l, AlertRecoveryLag)
	}
	r.clock.Advance(time.Minute)
	if n := len(r.events.of(EventRecoveryLag)); n != 1 {
		t.Errorf("%d alerts for one episode; want 1", n)
	}

	for range 6 { // 9 → 3 running: still at the baseline
		r.end(nil)
	}
	if len(r.events.of(EventRecoveryLagEnded)) != 0 {
		t.Fatal("the lag ended while 3 calls (the baseline) still ran")
	}
	r.end(nil) // 2 running: below the baseline
	ended := r.events.of(EventRecoveryLagEnded)
	if len(ended) != 1 || ended[0].Wait != 70*time.Second {
		t.Errorf("EventRecoveryLagEnded = %+v; want one, 70s after the answer", ended)
	}
	if r.e.Stats().Lagging {
		t.Error("Stats().Lagging still true below the baseline")
	}
}

func TestRecoveryLagNotReportedWhenLaneDrainsInTime(t *testing.T) {
	r := newLagRig(t)
	r.fill()
	r.end(nil)
	r.clock.Advance(5 * time.Second)
	for range 7 { // 2 running: below the baseline within RecoveryLag
		r.end(nil)
	}
	r.clock.Advance(time.Minute)
	if n := len(r.events.of(EventRecoveryLag)); n != 0 || r.reset.n.Load() != 0 {
		t.Errorf("%d alerts, %d resets for a lane that recovered in time", n, r.reset.n.Load())
	}
}

func TestRecoveryLagNeedsTheDependencyToAnswer(t *testing.T) {
	r := newLagRig(t)
	r.fill()
	timeout := context.DeadlineExceeded
	r.end(timeout) // still failing: an outage, not a lag
	r.end(timeout)
	r.clock.Advance(time.Minute)
	if n := len(r.events.of(EventRecoveryLag)); n != 0 {
		t.Fatalf("alert while the dependency still failed")
	}

	// It answers, then fails again before RecoveryLag: the answer no longer counts.
	r.end(nil)
	r.clock.Advance(5 * time.Second)
	r.end(errors.New("connection refused"))
	r.clock.Advance(time.Minute)
	if n := len(r.events.of(EventRecoveryLag)); n != 0 {
		t.Fatalf("alert although the dependency failed again after answering")
	}

	// A caller's own error is a normal answer.
	r.end(CallerError(errors.New("invalid amount")))
	r.clock.Advance(10 * time.Second)
	if n := len(r.events.of(EventRecoveryLag)); n != 1 {
		t.Errorf("%d alerts after a caller error answered and 10s passed; want 1", n)
	}
}

func TestRecoveryLagOnlyAfterDisturbance(t *testing.T) {
	r := newLagRig(t)
	// A busy lane that never filled up is not recovering from anything.
	for range 5 {
		c := &lagCall{result: make(chan error), done: make(chan error, 1)}
		entered := make(chan struct{})
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			c.done <- r.e.Do(context.Background(), func(context.Context) error { close(entered); return <-c.result })
		}()
		<-entered
		r.calls = append(r.calls, c)
	}
	r.end(nil)
	r.clock.Advance(time.Minute)
	if n := len(r.events.of(EventRecoveryLag)); n != 0 {
		t.Errorf("%d alerts for a lane that was never saturated", n)
	}
}

func TestDependencyFailure(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{CallerError(errors.New("bad input")), false},
		{context.Canceled, false},
		{context.DeadlineExceeded, true},
		{ErrMaxRunTime, true},
		{&ServerError{Status: 502}, true},
		{errors.New("connection reset"), true},
	} {
		if got := DependencyFailure(tc.err); got != tc.want {
			t.Errorf("DependencyFailure(%v) = %v; want %v", tc.err, got, tc.want)
		}
	}
	if CallerError(nil) != nil {
		t.Error("CallerError(nil) is not nil")
	}
}

// A lane that fills up again while its lag is reported keeps the report
// (one alert, one end) instead of starting a new incident.
func TestRecoveryLagSurvivesRefill(t *testing.T) {
	r := newLagRig(t)
	r.fill()
	r.end(nil)
	r.clock.Advance(10 * time.Second) // lagging, 9 running
	for range 4 {
		r.end(nil) // 5 running: RECOVERING, still above the baseline of 3
	}
	if s := r.e.Stats(); s.State != StateRecovering || !s.Lagging {
		t.Fatalf("stats %+v; want RECOVERING and lagging", s)
	}
	r.fillTo(10) // SATURATED again
	r.clock.Advance(time.Minute)
	for len(r.calls) > 2 {
		r.end(nil)
	}
	ended := r.events.of(EventRecoveryLagEnded)
	if n := len(r.events.of(EventRecoveryLag)); n != 1 || len(ended) != 1 || ended[0].Wait != 70*time.Second {
		t.Errorf("%d alerts, ends %+v; want one alert and one end 70s after the answer", n, ended)
	}
}
