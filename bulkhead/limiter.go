package bulkhead

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/waitq"
)

// limiter is the lane-independent core of an Executor: a counting semaphore
// with a bounded FIFO queue, a queue timeout and direct hand-off.
type limiter struct {
	spec      LaneSpec
	clock     Clock
	observers []Observer
	template  Rejection // copied into every rejection, so rejecting costs one allocation

	mu     sync.Mutex
	active int                    // slots in use, including slots handed to a waiter that has not woken yet
	queue  waitq.Queue[waitState] // FIFO: a waiter can leave from anywhere

	// One timer serves the whole queue: every waiter gets the same
	// QueueTimeout, so deadlines grow from head to tail and only the head's
	// matters. While the queue is not empty a timer is pending for a time no
	// later than the head's deadline.
	queueTimer bool

	state        State
	stateSeq     uint64
	belowSince   time.Time // start of the current run below 60% while RECOVERING
	recoverTimer bool      // a recoverCheck is scheduled

	// guarded sends Do through run: the lane has a breaker or a MaxRunTime.
	guarded     bool
	breaker     Breaker
	circuitCode string // ERR_<LANE>_CIRCUIT_OPEN, built once
	log         *slog.Logger
	stuck       atomic.Int64  // calls running past MaxRunTime
	runSeq      atomic.Uint64 // numbers the calls of a lane with a MaxRunTime

	// Recovery lag (recoverylag.go). lag is written under mu and read
	// without it on the path of every call, which it costs one load.
	lag          atomic.Uint32
	trackLag     bool
	answeredAt   time.Time
	answerSeq    uint64
	lagging      bool
	breakerState BreakerState
	resetters    []PoolResetter
}

// waiter is one caller in the queue, signalled once it is granted a slot
// or timed out. Its state is guarded by limiter.mu.
type waiter = waitq.Waiter[waitState]

type waitState struct {
	deadline time.Time // end of its QueueTimeout
	timedOut bool      // the signal means the wait timed out, not a slot
	critical bool
}

// waiters recycles waiters and their channels. A waiter goes back only once
// its wait is over: it is out of the queue and its channel is empty.
var waiters = sync.Pool{New: func() any { return waitq.New[waitState]() }}

func newLimiter(spec LaneSpec, o *options) *limiter {
	return &limiter{
		spec:        spec,
		clock:       o.clock,
		observers:   o.observers,
		breaker:     o.breaker,
		circuitCode: spec.CircuitCode(),
		log:         o.logger,
		guarded:     o.breaker != nil || spec.MaxRunTime > 0,
		// A lane that cannot stay at its baseline without being full and
		// has no queue to hand slots over cannot lag: leave it untracked,
		// so a one-slot lane, full on every call, pays nothing for it.
		trackLag: spec.Baseline < spec.MaxConcurrent || spec.MaxQueued > 0,
		template: Rejection{
			Lane:       spec.Name,
			RetryAfter: spec.RetryAfter,
			Status:     spec.Policy.Status(),
			Code:       spec.Code(),
			limit:      spec.MaxConcurrent,
			queueCap:   spec.MaxQueued,
		},
	}
}

// capFor is how many slots work of this kind may fill.
func (l *limiter) capFor(critical bool) int {
	if critical {
		return l.spec.MaxConcurrent
	}
	return l.spec.MaxConcurrent - l.spec.Reserved
}

// acquire takes a slot or says why not. On success the caller must call release.
func (l *limiter) acquire(ctx context.Context, critical bool) error {
	if err := ctx.Err(); err != nil {
		return l.contextError(err, 0)
	}
	l.mu.Lock()
	// Free capacity implies no eligible waiter (release hands slots straight
	// to waiters), so taking it here is not barging past the queue.
	if l.active < l.capFor(critical) {
		l.active++
		c := l.updateState()
		l.mu.Unlock()
		l.emitState(c)
		if len(l.observers) > 0 {
			l.emit(Event{Kind: EventAdmitted, Lane: l.spec.Name})
		}
		return nil
	}
	if queued := l.queue.Len(); queued >= l.spec.MaxQueued || l.state == StateSaturated {
		reason := ReasonSaturated // no queue, or a SATURATED lane that fails fast
		if l.spec.MaxQueued > 0 && queued >= l.spec.MaxQueued {
			reason = ReasonQueueFull
		}
		l.mu.Unlock()
		return l.reject(reason, 0)
	}
	start := l.clock.Now()
	w := waiters.Get().(*waiter)
	w.Val = waitState{deadline: start.Add(l.spec.QueueTimeout), critical: critical}
	l.queue.PushBack(w)
	l.armQueueTimer(start)
	c := l.updateState()
	l.mu.Unlock()
	l.emitState(c)
	err := l.wait(ctx, w, start)
	waiters.Put(w)
	return err
}

// wait blocks until the waiter is granted a slot, times out, or its context ends.
func (l *limiter) wait(ctx context.Context, w *waiter, start time.Time) error {
	select {
	case <-w.Ready():
	case <-ctx.Done():
		l.mu.Lock()
		if w.Queued() {
			l.queue.Remove(w)
			c := l.updateState()
			l.mu.Unlock()
			l.emitState(c)
			return l.contextError(ctx.Err(), l.clock.Now().Sub(start))
		}
		l.mu.Unlock()
		<-w.Ready() // granted or timed out just now: the signal is on its way
	}
	waited := l.clock.Now().Sub(start)
	if w.Val.timedOut {
		return l.reject(ReasonWaitTimeout, waited)
	}
	// The slot is ours. Work whose caller gave up while it waited must not
	// start: pass the slot on and say why.
	if err := ctx.Err(); err != nil {
		l.release()
		return l.contextError(err, waited)
	}
	if len(l.observers) > 0 {
		l.emit(Event{Kind: EventAdmitted, Lane: l.spec.Name, Wait: waited})
	}
	return nil
}

// release gives a slot back: straight to the first waiter allowed to take
// it, so no newcomer can slip in between, or back to the pool.
func (l *limiter) release() {
	l.mu.Lock()
	w := l.nextEligible()
	if w != nil {
		l.queue.Remove(w) // active stays: the slot changes hands
	} else {
		l.active--
	}
	c := l.updateState()
	var lag lagEnd
	if l.lag.Load() != lagIdle {
		lag = l.atBaseline()
	}
	l.mu.Unlock()
	if w != nil {
		w.Signal()
	}
	l.emitState(c)
	l.emitLag(lag)
}

// nextEligible is the first waiter in FIFO order that may take the slot being
// released. Critical work may always take it; ordinary work only while it
// leaves the reserved slots free. Callers hold l.mu.
func (l *limiter) nextEligible() *waiter {
	ordinaryOK := l.active-1 < l.capFor(false)
	for w := l.queue.Front(); w != nil; w = w.Next() {
		if w.Val.critical || ordinaryOK {
			return w
		}
	}
	return nil
}

// expireQueue runs when the queue timer fires: it times out every waiter
// whose QueueTimeout has passed and sets the timer for the next one.
func (l *limiter) expireQueue() {
	l.mu.Lock()
	l.queueTimer = false
	now := l.clock.Now()
	var expired waitq.Batch[waitState] // signalled after unlock
	for w := l.queue.Front(); w != nil && !w.Val.deadline.After(now); w = l.queue.Front() {
		l.queue.Remove(w)
		w.Val.timedOut = true
		expired.Push(w)
	}
	l.armQueueTimer(now)
	c := l.updateState()
	l.mu.Unlock()
	expired.Signal()
	l.emitState(c)
}

// armQueueTimer makes sure a timer is pending for the head's deadline.
// Callers hold l.mu. Clock.AfterFunc never calls back synchronously.
func (l *limiter) armQueueTimer(now time.Time) {
	head := l.queue.Front()
	if head == nil || l.queueTimer {
		return
	}
	l.queueTimer = true
	l.clock.AfterFunc(head.Val.deadline.Sub(now), l.expireQueue)
}

// reject builds the rejection and reports it.
func (l *limiter) reject(reason Reason, waited time.Duration) *Rejection {
	r := new(Rejection)
	*r = l.template
	r.Reason, r.Waited = reason, waited
	if len(l.observers) > 0 {
		l.emit(Event{Kind: EventRejected, Lane: l.spec.Name, Reason: reason, Wait: waited})
	}
	return r
}

// contextError turns the end of the caller's context into an error: a
// deadline is a rejection (the lane could not start the work in time), a
// cancellation is the caller's own doing and is returned as such.
func (l *limiter) contextError(err error, waited time.Duration) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return l.reject(ReasonDeadline, waited)
	}
	return fmt.Errorf("bulkhead: lane %q: the caller gave up before the work started: %w", l.spec.Name, err)
}

func (l *limiter) emit(e Event) {
	for _, o := range l.observers {
		o.Observe(e)
	}
}

func (l *limiter) stats() Stats {
	l.mu.Lock()
	c := l.checkRecovered() // a lane nobody touched may have recovered by now
	s := Stats{
		Lane:          l.spec.Name,
		Limit:         l.spec.MaxConcurrent,
		Reserved:      l.spec.Reserved,
		QueueCapacity: l.spec.MaxQueued,
		Active:        l.active,
		Queued:        l.queue.Len(),
		State:         l.state,
		Breaker:       l.breakerState,
		Stuck:         int(l.stuck.Load()),
		Lagging:       l.lagging,
	}
	l.mu.Unlock()
	l.emitState(c)
	return s
}
