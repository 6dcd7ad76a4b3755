package bulkhead

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/fakeclock"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
)

type runLimited struct{}

func (runLimited) Spec() LaneSpec {
	return LaneSpec{Name: "run_limited", MaxConcurrent: 1, MaxRunTime: 10 * time.Second}
}

// of is the events of one kind, in order.
func (r *recorder) of(kind EventKind) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Event
	for _, e := range r.events {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// stuckInDependency stands for a call to a dependency that never answers:
// it returns only once its context is cancelled and the test lets it go.
func stuckInDependency(ctx context.Context, cancelled chan<- error, letGo <-chan struct{}) error {
	<-ctx.Done()
	cancelled <- context.Cause(ctx)
	<-letGo
	return ctx.Err()
}

func TestMaxRunTimeCancelsStuckWorkAndKeepsItsSlot(t *testing.T) {
	clock := fakeclock.New(epoch)
	var logs testsvc.SyncBuffer
	events := &recorder{}
	e := MustExecutor[runLimited](WithClock(clock), WithObserver(events),
		WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))

	cancelled, letGo, done := make(chan error, 1), make(chan struct{}), make(chan error, 1)
	entered := make(chan struct{})
	go func() {
		done <- e.Do(context.Background(), func(ctx context.Context) error {
			close(entered)
			return stuckInDependency(ctx, cancelled, letGo)
		})
	}()
	<-entered
	clock.Advance(10*time.Second - time.Nanosecond)
	if got := e.Stats().Stuck; got != 0 {
		t.Fatalf("Stuck = %d before MaxRunTime", got)
	}
	clock.Advance(time.Nanosecond)

	cause := <-cancelled
	if !errors.Is(cause, ErrMaxRunTime) || !strings.Contains(cause.Error(), `"run_limited"`) {
		t.Errorf("the work's context cause = %v; want ErrMaxRunTime naming the lane", cause)
	}
	stuck := events.of(EventStuck)
	if len(stuck) != 1 {
		t.Fatalf("got %d EventStuck, want 1", len(stuck))
	}
	if !strings.Contains(stuck[0].Stack, "stuckInDependency") || stuck[0].Wait != 10*time.Second {
		t.Errorf("EventStuck = {Wait %v, Stack %q}; want the stuck goroutine's stack (stuckInDependency)", stuck[0].Wait, stuck[0].Stack)
	}
	if !strings.Contains(logs.String(), "MaxRunTime") || !strings.Contains(logs.String(), "stuckInDependency") {
		t.Errorf("log = %q; want a warning with the stack", logs.String())
	}

	// Cancelled but not returned: the slot is still taken, so the bound holds.
	if s := e.Stats(); s.Active != 1 || s.Stuck != 1 {
		t.Errorf("after the cancel: Active %d, Stuck %d; want 1 and 1", s.Active, s.Stuck)
	}
	err := e.Do(context.Background(), func(context.Context) error {
		t.Error("a second call ran while the stuck one held the only slot")
		return nil
	})
	if rej, ok := AsRejection(err); !ok || rej.Reason != ReasonSaturated {
		t.Errorf("second call: %v; want a saturated rejection", err)
	}

	close(letGo)
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Do = %v; want the work's own error", err)
	}
	if s := e.Stats(); s.Active != 0 || s.Stuck != 0 {
		t.Errorf("after the work returned: Active %d, Stuck %d; want 0 and 0", s.Active, s.Stuck)
	}
}

func TestMaxRunTimeWorkInTimeIsNotStuck(t *testing.T) {
	clock := fakeclock.New(epoch)
	events := &recorder{}
	e := MustExecutor[runLimited](WithClock(clock), WithObserver(events))
	v, err := Call(context.Background(), e, func(ctx context.Context) (int, error) {
		clock.Advance(9 * time.Second)
		return 7, ctx.Err()
	})
	if v != 7 || err != nil {
		t.Fatalf("Call = %d, %v", v, err)
	}
	clock.Advance(time.Hour)
	if n := len(events.of(EventStuck)); n != 0 || e.Stats().Stuck != 0 {
		t.Errorf("work that returned in time was reported stuck (%d events)", n)
	}
}

func TestMaxRunTimePanicReleasesSlot(t *testing.T) {
	e := MustExecutor[runLimited](WithClock(fakeclock.New(epoch)))
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic did not go on up")
			}
		}()
		_ = e.Do(context.Background(), func(context.Context) error { panic("boom") })
	}()
	if s := e.Stats(); s.Active != 0 {
		t.Errorf("Active = %d after a panic", s.Active)
	}
}

type badRunTime struct{}

func (badRunTime) Spec() LaneSpec {
	return LaneSpec{Name: "bad_run_time", MaxConcurrent: 2, MaxRunTime: -time.Second}
}

type badBaseline struct{}

func (badBaseline) Spec() LaneSpec {
	return LaneSpec{Name: "bad_baseline", MaxConcurrent: 2, Baseline: 3}
}

func TestSpecRejectsBadRunTimeAndBaseline(t *testing.T) {
	if _, err := NewExecutor[badRunTime](); err == nil || !strings.Contains(err.Error(), "MaxRunTime") {
		t.Errorf("negative MaxRunTime: %v", err)
	}
	if _, err := NewExecutor[badBaseline](); err == nil || !strings.Contains(err.Error(), "Baseline 3") {
		t.Errorf("Baseline above MaxConcurrent: %v", err)
	}
}
