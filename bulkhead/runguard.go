package bulkhead

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"strconv"
	"sync/atomic"
)

// ErrMaxRunTime is the cause (context.Cause) of the context of work that
// ran longer than its lane's MaxRunTime.
var ErrMaxRunTime = errors.New("bulkhead: the work ran longer than its lane's MaxRunTime")

// run is Do for lanes with a breaker or a MaxRunTime: the common path stays
// free of both.
func (l *limiter) run(ctx context.Context, critical bool, fn func(context.Context) error) error {
	b := l.breaker
	if b != nil && b.Refusing() {
		return l.rejectOpen()
	}
	if err := l.acquire(ctx, critical); err != nil {
		return err
	}
	// The permit is asked for only once the slot is ours: a half-open
	// breaker hands out a few permits and gets each back only from Done,
	// so a permit must never go to work the lane then turns away.
	if b != nil && !b.Permit() {
		l.release()
		return l.rejectOpen()
	}
	var w *runWatch
	if l.spec.MaxRunTime > 0 {
		ctx, w = l.watchRunTime(ctx)
		defer pprof.SetGoroutineLabels(w.parent) // last: restore the caller's labels
	}
	failure := true // unless fn returns: a panic counts against the dependency
	defer func() {
		if w != nil && w.finish() {
			failure = true // cancelled for running too long: a timeout
		}
		if b != nil {
			b.Done(failure)
		}
		if l.lag.Load() != lagIdle {
			l.noteOutcome(failure)
		}
		l.release() // last: the slot is held until the work has returned
	}()
	err := fn(inLane(ctx, l.spec.Name))
	if b != nil {
		failure = b.IsFailure(err)
	} else {
		failure = DependencyFailure(err)
	}
	return err
}

func (l *limiter) rejectOpen() *Rejection {
	r := l.reject(ReasonBreakerOpen, 0)
	r.Code = l.circuitCode
	return r
}

// runWatch is one call's MaxRunTime timer.
type runWatch struct {
	l      *limiter
	parent context.Context
	cancel context.CancelCauseFunc
	stop   func() bool
	call   string // the call's profiler label, to find its goroutine by
	fired  atomic.Bool
}

// watchRunTime starts the call's timer and labels the goroutine running it
// (Do runs the work on the caller's) with the lane and a call number: the
// runtime offers no cheaper way to find one goroutine's stack later.
func (l *limiter) watchRunTime(parent context.Context) (context.Context, *runWatch) {
	w := &runWatch{l: l, parent: parent, call: strconv.FormatUint(l.runSeq.Add(1), 10)}
	ctx := pprof.WithLabels(parent, pprof.Labels(labelLane, l.spec.Name, labelCall, w.call))
	pprof.SetGoroutineLabels(ctx)
	ctx, w.cancel = context.WithCancelCause(ctx)
	w.stop = l.clock.AfterFunc(l.spec.MaxRunTime, w.expire)
	return ctx, w
}

// Profiler labels of work in a lane with a MaxRunTime; they also show in
// CPU and goroutine profiles.
const (
	labelLane = "bulkhead_lane"
	labelCall = "bulkhead_call"
)

// expire runs when the work has had MaxRunTime. The stack is taken before
// the context is cancelled, so it shows where the work was stuck rather
// than how it reacted to the cancellation.
func (w *runWatch) expire() {
	l := w.l
	stack := w.goroutineStack()
	l.stuck.Add(1) // before the swap, so finish always has one to take back
	if !w.fired.CompareAndSwap(false, true) {
		l.stuck.Add(-1)
		return
	}
	w.cancel(fmt.Errorf("%w (%s) in lane %q; its slot is released when it returns", ErrMaxRunTime, l.spec.MaxRunTime, l.spec.Name))
	l.logger().Warn("bulkhead: work ran longer than the lane's MaxRunTime; its context was cancelled, its slot is held until it returns. Its goroutine:\n"+stack,
		"lane", l.spec.Name, "max_run_time", l.spec.MaxRunTime)
	if len(l.observers) > 0 {
		l.emit(Event{Kind: EventStuck, Lane: l.spec.Name, Wait: l.spec.MaxRunTime, At: l.clock.Now(), Stack: stack})
	}
}

// finish stops the timer once the work has returned and reports whether
// the work had been cancelled for running too long.
func (w *runWatch) finish() bool {
	w.stop()
	// Whoever flips fired first decides: the timer (stuck) or the work
	// (returned in time, a late timer does nothing).
	if w.fired.CompareAndSwap(false, true) {
		w.cancel(context.Canceled)
		return false
	}
	w.l.stuck.Add(-1)
	w.cancel(context.Canceled)
	return true
}

// goroutineStack is the stack of the goroutine running the call, found by
// its labels in the goroutine profile (one entry per distinct stack and
// label set; the call label makes its entry its own).
func (w *runWatch) goroutineStack() string {
	var b bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&b, 1); err != nil {
		return "stack not available: " + err.Error()
	}
	mark := []byte(strconv.Quote(labelCall) + ":" + strconv.Quote(w.call))
	for block := range bytes.SplitSeq(b.Bytes(), []byte("\n\n")) {
		if bytes.Contains(block, mark) {
			return string(block)
		}
	}
	return "stack not found (the work may have just returned)"
}
