// Package gate is the admission core of the lane-typed pools: a budget of
// connections, a bounded FIFO of waiters with an acquire timeout, the
// cross-lane guard, leak detection and the counters behind lanepool.Stats.
// The pools put it in front of their driver's pool, so the driver's own
// unbounded wait is never reached.
package gate

import (
	"context"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/waitq"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// Gate admits holders of a lane's connections.
type Gate struct {
	Lane, Resource string
	Cfg            lanepool.Config

	// Idle reports the underlying pool's idle connections for Stats; may be nil.
	Idle func() int

	mu     sync.Mutex
	inUse  int // slots taken, whether a caller holds a connection or not
	queue  waitq.Queue[struct{}]
	closed bool

	// Held tickets, oldest first, watched for leaks by one timer per gate
	// (not one per ticket): it is set for the oldest ticket's threshold.
	heldHead, heldTail *Ticket
	leakTimer          bool

	acquired, timeouts, failed, leaks, crossLane atomic.Uint64
	waitNanos                                    atomic.Int64
	held                                         atomic.Int64 // granted tickets not yet returned
}

// New makes the gate of one pool; cfg must be resolved.
func New(lane, resource string, cfg lanepool.Config) *Gate {
	return &Gate{Lane: lane, Resource: resource, Cfg: cfg}
}

// Attach tells the observers about the pool; call it once the pool is ready.
func (g *Gate) Attach(src lanepool.Source) {
	g.emit(lanepool.Event{Kind: lanepool.EventAttached, Source: src})
}

// Guard checks that ctx's work may use the pool.
func (g *Gate) Guard(ctx context.Context) error {
	if g.Cfg.Guard == lanepool.GuardOff {
		return nil
	}
	caller, ok := bulkhead.LaneOf(ctx)
	if !ok || caller == g.Lane {
		return nil
	}
	g.crossLane.Add(1)
	g.emit(lanepool.Event{Kind: lanepool.EventCrossLane, Caller: caller})
	err := &lanepool.CrossLaneError{Resource: g.Resource, Owner: g.Lane, Caller: caller}
	if g.Cfg.Guard == lanepool.GuardLog {
		g.Cfg.Logger.WarnContext(ctx, err.Error(), "lane", g.Lane, "caller_lane", caller, "resource", g.Resource)
		return nil
	}
	return err
}

// Ticket is one admitted holder. Release it exactly once (more calls are no-ops).
type Ticket struct {
	g          *Gate
	start      time.Time     // when the acquire began
	admitted   time.Time     // when it got the slot: leaks are measured from here
	granted    bool          // set once, by the caller, before it hands the connection on
	watched    bool          // in the held list, guarded by g.mu
	flags      atomic.Uint32 // returnedFlag, leakedFlag (one word: the ticket stays in the 288-byte size class)
	released   atomic.Bool
	prev, next *Ticket // in the gate's held list, guarded by g.mu
	npc        int
	pcs        [24]uintptr
}

// Acquire admits the caller or says why not, and grants the ticket at once:
// for holders whose slot is all they get (a request in flight). skip is the
// number of frames between the caller to blame for a leak and Acquire. On
// success the caller must Release the ticket; the time is when opening a
// connection must be done by.
func (g *Gate) Acquire(ctx context.Context, skip int) (*Ticket, time.Time, error) {
	t, deadline, err := g.acquire(ctx, skip+1)
	if err == nil {
		t.Grant()
	}
	return t, deadline, err
}

// Admit is Acquire for pools that open or fetch a connection after
// admission: the ticket holds a slot, but counts as acquired, in use and
// watched for leaks only once the pool has the connection and calls Grant.
// A failure to get it is reported with Fail, the slot given back with
// Release.
func (g *Gate) Admit(ctx context.Context, skip int) (*Ticket, time.Time, error) {
	return g.acquire(ctx, skip+1)
}

func (g *Gate) acquire(ctx context.Context, skip int) (*Ticket, time.Time, error) {
	if err := g.Guard(ctx); err != nil {
		return nil, time.Time{}, err
	}
	start := time.Now()
	deadline := start.Add(g.Cfg.AcquireTimeout)
	if err := ctx.Err(); err != nil {
		return nil, deadline, g.fail(ctxReason(err), 0, err)
	}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil, deadline, g.fail(lanepool.ReasonClosed, 0, nil)
	}
	if g.inUse < g.Cfg.MaxConns {
		g.inUse++
		g.mu.Unlock()
		return g.admit(start, 0, skip), deadline, nil
	}
	if g.queue.Len() >= g.Cfg.MaxWaiters {
		g.mu.Unlock()
		return nil, deadline, g.fail(lanepool.ReasonWaitersFull, 0, nil)
	}
	w := waitq.New[struct{}]() // signalled once, when granted
	g.queue.PushBack(w)
	g.mu.Unlock()

	timer := time.NewTimer(g.Cfg.AcquireTimeout)
	defer timer.Stop()
	var reason lanepool.Reason
	var cause error
	select {
	case <-w.Ready():
		return g.admit(start, time.Since(start), skip), deadline, nil
	case <-timer.C:
		reason = lanepool.ReasonTimeout
	case <-ctx.Done():
		cause = ctx.Err()
		reason = ctxReason(cause)
	}
	g.mu.Lock()
	if w.Queued() {
		g.queue.Remove(w)
		g.mu.Unlock()
		return nil, deadline, g.fail(reason, time.Since(start), cause)
	}
	g.mu.Unlock()
	<-w.Ready() // granted just now: the slot is ours
	if reason == lanepool.ReasonTimeout && ctx.Err() == nil {
		return g.admit(start, time.Since(start), skip), deadline, nil // a hair late, but the connection is there
	}
	g.release(nil)
	return nil, deadline, g.fail(reason, time.Since(start), cause)
}

func ctxReason(err error) lanepool.Reason {
	if errors.Is(err, context.DeadlineExceeded) {
		return lanepool.ReasonDeadline
	}
	return lanepool.ReasonCanceled
}

func (g *Gate) admit(start time.Time, wait time.Duration, skip int) *Ticket {
	t := &Ticket{g: g, start: start, admitted: start.Add(wait)}
	if g.Cfg.LeakThreshold > 0 {
		t.npc = runtime.Callers(skip+3, t.pcs[:])
	}
	return t
}

// Grant records that the ticket's holder has its connection: it counts as
// acquired and in use, and is watched for leaks, until Returned. Call it
// once, before the connection is handed on.
func (t *Ticket) Grant() {
	g := t.g
	t.granted = true
	g.held.Add(1)
	g.acquired.Add(1)
	wait := t.admitted.Sub(t.start)
	g.waitNanos.Add(int64(wait))
	if g.Cfg.LeakThreshold > 0 {
		g.mu.Lock()
		g.watch(t)
		g.mu.Unlock()
	}
	if len(g.Cfg.Observers) > 0 {
		g.emit(lanepool.Event{Kind: lanepool.EventAcquired, Wait: wait})
	}
}

// Returned records that the holder gave its connection back, when the slot
// stays taken a while longer (until the server has ended a broken session,
// or a dial that outlived its caller ends): no caller holds a connection,
// so it is no longer in use nor a leak. Release implies it; later calls do
// nothing.
func (t *Ticket) Returned() {
	if t.markReturned() && t.g.Cfg.LeakThreshold > 0 {
		t.g.mu.Lock()
		t.g.unwatch(t)
		t.g.mu.Unlock()
	}
}

// markReturned counts the connection as no longer held and reports
// whether this call did so; the caller takes it off the leak watch.
func (t *Ticket) markReturned() bool {
	if t.flags.Or(returnedFlag)&returnedFlag != 0 || !t.granted {
		return false
	}
	g := t.g
	g.held.Add(-1)
	if t.flags.Load()&leakedFlag != 0 {
		g.Cfg.Logger.Info("bulkhead: a connection reported as leaked was returned",
			"lane", g.Lane, "resource", g.Resource, "held", time.Since(t.admitted).Round(time.Millisecond))
	}
	return true
}

// Fail counts a failed acquire and builds its error; pools call it when
// opening the connection fails after admission (and Release the ticket).
func (g *Gate) Fail(reason lanepool.Reason, waited time.Duration, cause error) error {
	return g.fail(reason, waited, cause)
}

func (g *Gate) fail(reason lanepool.Reason, waited time.Duration, cause error) error {
	g.failed.Add(1)
	if reason == lanepool.ReasonTimeout || reason == lanepool.ReasonDeadline {
		g.timeouts.Add(1)
	}
	if len(g.Cfg.Observers) > 0 {
		g.emit(lanepool.Event{Kind: lanepool.EventAcquireFailed, Reason: reason, Wait: waited})
	}
	return &lanepool.AcquireError{
		Lane: g.Lane, Resource: g.Resource, Reason: reason, Waited: waited,
		RetryAfter: g.Cfg.RetryAfter, Budget: g.Cfg.MaxConns, Waiters: g.Cfg.MaxWaiters, Err: cause,
	}
}

// Ticket flags.
const (
	returnedFlag = 1 << iota // the caller gave the connection back (the slot may stay taken)
	leakedFlag               // reported as leaked
)

// Start is when the ticket's acquire began.
func (t *Ticket) Start() time.Time { return t.start }

// Release gives the ticket's slot back, to the first waiter if there is one.
// It reports whether this call released it.
func (t *Ticket) Release() bool {
	if !t.released.CompareAndSwap(false, true) {
		return false
	}
	t.markReturned()
	t.g.release(t) // takes it off the leak watch, under the lock it takes anyway
	return true
}

// watch adds t to the held list and makes sure the leak timer runs.
// Callers hold g.mu.
func (g *Gate) watch(t *Ticket) {
	t.watched = true
	t.prev = g.heldTail
	if g.heldTail != nil {
		g.heldTail.next = t
	} else {
		g.heldHead = t
	}
	g.heldTail = t
	g.armLeakTimer(t.admitted)
}

// unwatch takes t off the held list. Callers hold g.mu.
func (g *Gate) unwatch(t *Ticket) {
	if !t.watched {
		return
	}
	if t.prev != nil {
		t.prev.next = t.next
	} else {
		g.heldHead = t.next
	}
	if t.next != nil {
		t.next.prev = t.prev
	} else {
		g.heldTail = t.prev
	}
	t.prev, t.next, t.watched = nil, nil, false
}

// armLeakTimer sets the timer for the oldest held ticket, unless one is
// pending (it re-arms itself when it fires). Callers hold g.mu.
func (g *Gate) armLeakTimer(now time.Time) {
	if g.leakTimer || g.heldHead == nil {
		return
	}
	g.leakTimer = true
	time.AfterFunc(g.heldHead.admitted.Add(g.Cfg.LeakThreshold).Sub(now), g.checkLeaks)
}

// checkLeaks reports every ticket held past the threshold, oldest first.
func (g *Gate) checkLeaks() {
	g.mu.Lock()
	g.leakTimer = false
	now := time.Now()
	var leaked []*Ticket
	for t := g.heldHead; t != nil && now.Sub(t.admitted) >= g.Cfg.LeakThreshold; t = g.heldHead {
		g.unwatch(t)
		t.flags.Or(leakedFlag)
		leaked = append(leaked, t)
	}
	g.armLeakTimer(now)
	g.mu.Unlock()
	for _, t := range leaked {
		t.reportLeak(now)
	}
}

func (t *Ticket) reportLeak(now time.Time) {
	if t.flags.Load()&returnedFlag != 0 {
		return
	}
	g := t.g
	leak := &lanepool.Leak{
		Lane: g.Lane, Resource: g.Resource, AcquiredAt: t.admitted,
		Held: now.Sub(t.admitted), Stack: formatStack(t.pcs[:t.npc]),
	}
	g.leaks.Add(1)
	g.emit(lanepool.Event{Kind: lanepool.EventLeak, Leak: leak})
	if g.Cfg.OnLeak != nil {
		g.Cfg.OnLeak(*leak)
		return
	}
	g.Cfg.Logger.Warn("bulkhead: connection held longer than the leak threshold; it was acquired at:\n"+leak.Stack,
		"lane", g.Lane, "resource", g.Resource, "held", leak.Held.Round(time.Millisecond), "threshold", g.Cfg.LeakThreshold)
}

func formatStack(pcs []uintptr) string {
	var b strings.Builder
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if f.Function != "" {
			b.WriteString(f.Function)
			b.WriteString("\n\t")
			b.WriteString(f.File)
			b.WriteByte(':')
			b.WriteString(itoa(f.Line))
			b.WriteByte('\n')
		}
		if !more {
			break
		}
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	return string(buf[i:])
}

func (g *Gate) release(t *Ticket) {
	g.mu.Lock()
	if t != nil {
		g.unwatch(t)
	}
	w := g.queue.Front()
	if w != nil {
		g.queue.Remove(w) // the slot changes hands: inUse stays
	} else {
		g.inUse--
	}
	g.mu.Unlock()
	if w != nil {
		w.Signal()
	}
}

// Close makes every later Acquire fail with ReasonClosed; holders keep
// their connections until they release them.
func (g *Gate) Close() {
	g.mu.Lock()
	first := !g.closed
	g.closed = true
	g.mu.Unlock()
	if first {
		g.emit(lanepool.Event{Kind: lanepool.EventClosed})
	}
}

// Stats is the pool's snapshot.
func (g *Gate) Stats() lanepool.Stats {
	g.mu.Lock()
	slots, waiting := g.inUse, g.queue.Len()
	g.mu.Unlock()
	inUse := int(g.held.Load())
	s := lanepool.Stats{
		Lane: g.Lane, Resource: g.Resource,
		Budget: g.Cfg.MaxConns, MaxWaiters: g.Cfg.MaxWaiters,
		InUse: inUse, Pending: max(slots-inUse, 0), Waiting: waiting,
		Acquired: g.acquired.Load(), Timeouts: g.timeouts.Load(), Failed: g.failed.Load(),
		Leaks: g.leaks.Load(), CrossLane: g.crossLane.Load(),
		WaitTotal: time.Duration(g.waitNanos.Load()),
	}
	if g.Idle != nil {
		s.Idle = g.Idle()
	}
	return s
}

func (g *Gate) emit(e lanepool.Event) {
	if len(g.Cfg.Observers) == 0 {
		return
	}
	e.Lane, e.Resource = g.Lane, g.Resource
	for _, o := range g.Cfg.Observers {
		o.ObservePool(e)
	}
}

// ReleaseWhenGone releases t now if gone is nil or closed, and otherwise
// once gone is closed: the server's session of a connection the driver gave
// up on lives on until then, and counts against the budget (pgx bounds
// that wait: it closes the socket after at most 15s). Either way no caller
// holds the connection any more.
func (t *Ticket) ReleaseWhenGone(gone <-chan struct{}) {
	if gone == nil {
		t.Release()
		return
	}
	select {
	case <-gone:
		t.Release()
	default:
		t.Returned() // no caller holds it, but the slot stays taken until then
		go func() {
			<-gone
			t.Release()
		}()
	}
}

// TypeName is the name of a pool's lane type, for its resource name
// ("lanedb.DB[Tax]").
func TypeName[L any]() string {
	t := reflect.TypeFor[L]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

// Holding is how many connections callers hold (InUse, without the cost of Stats).
func (g *Gate) Holding() int64 { return g.held.Load() }

// Released reports whether the ticket was released.
func (t *Ticket) Released() bool { return t.released.Load() }
