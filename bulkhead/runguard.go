package bulkhead

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
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
	r.Code = l.spec.CircuitCode()
	return r
}

// runWatch is one call's MaxRunTime timer.
type runWatch struct {
	l      *limiter
	cancel context.CancelCauseFunc
	stop   func() bool
	gid    uint64 // the goroutine running the work: Do runs it on the caller's
	fired  atomic.Bool
}

func (l *limiter) watchRunTime(ctx context.Context) (context.Context, *runWatch) {
	ctx, cancel := context.WithCancelCause(ctx)
	w := &runWatch{l: l, cancel: cancel, gid: goroutineID()}
	w.stop = l.clock.AfterFunc(l.spec.MaxRunTime, w.expire)
	return ctx, w
}

// expire runs when the work has had MaxRunTime. The stack is taken before
// the context is cancelled, so it shows where the work was stuck rather
// than how it reacted to the cancellation.
func (w *runWatch) expire() {
	l := w.l
	stack := goroutineStack(w.gid)
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

// goroutineID is the id of the calling goroutine, from the first line of
// its stack ("goroutine 42 [running]:"). It costs a short traceback, paid
// only by lanes with a MaxRunTime.
func goroutineID() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		id, _ := strconv.ParseUint(string(b[:i]), 10, 64)
		return id
	}
	return 0
}

// goroutineStack is the stack of goroutine id, taken from a dump of all
// goroutines (the runtime offers no other way to read another goroutine's).
func goroutineStack(id uint64) string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 64<<20 {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	head := []byte("goroutine " + strconv.FormatUint(id, 10) + " [")
	for block := range bytes.SplitSeq(buf, []byte("\n\n")) {
		if bytes.HasPrefix(block, head) {
			return string(block)
		}
	}
	return "goroutine " + strconv.FormatUint(id, 10) + ": stack not found (it may have just returned)"
}
