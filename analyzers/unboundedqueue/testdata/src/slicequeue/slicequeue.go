package slicequeue

import (
	"sync"
	"sync/atomic"
)

type Event struct{ ID string }

// ---- shape 5: slice used as a queue ----

type Outbox struct {
	mu      sync.Mutex
	pending []Event
}

func (o *Outbox) Publish(e Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending = append(o.pending, e) // want `ERR_UNBOUNDED_QUEUE_DETECTED: slice used as a queue: \(Outbox\).Publish appends to o.pending with no check of its length, and \(Outbox\).next drains it, .*; check len\(o.pending\) against a bound`
}

func (o *Outbox) next() (Event, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.pending) == 0 {
		return Event{}, false
	}
	e := o.pending[0]
	o.pending = o.pending[1:]
	return e, true
}

type Batcher struct {
	mu  sync.RWMutex
	buf []Event
}

func (b *Batcher) Add(e Event) {
	b.mu.Lock()
	b.buf = append(b.buf, e) // want `slice used as a queue: \(Batcher\).Add appends to b.buf`
	b.mu.Unlock()
}

func (b *Batcher) Flush() []Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.buf
	b.buf = nil
	return out
}

// A buffer one goroutine fills and resets is not a queue between goroutines.
type QueryBuilder struct{ params []any }

func (q *QueryBuilder) Add(p any) { q.params = append(q.params, p) }

func (q *QueryBuilder) Reset() { q.params = q.params[:0] }

// Traps.

type BoundedOutbox struct {
	mu      sync.Mutex
	pending []Event
	max     int
}

func (o *BoundedOutbox) Publish(e Event) bool { // want Publish:"claimsUnderLock"
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.pending) >= o.max {
		return false
	}
	o.pending = append(o.pending, e)
	return true
}

func (o *BoundedOutbox) next() Event {
	e := o.pending[0]
	o.pending = o.pending[1:]
	return e
}

// A slice that only grows and is never drained is a collection, not a queue.
type Registry struct{ names []string }

func (r *Registry) Register(n string) { r.names = append(r.names, n) }

// A sliding window trims itself where it appends.
type Window struct {
	mu   sync.Mutex
	last []int
}

func (w *Window) Observe(v int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.last = append(w.last, v)
	w.last = w.last[1:]
}

func (w *Window) Reset() { w.last = w.last[:0] }

// A struct being built by a function is not a queue, and an empty literal
// that replaces nil for JSON is not a drain.
type Report struct{ Lines []string }

func BuildReport(in []string) *Report {
	r := &Report{}
	for _, l := range in {
		r.Lines = append(r.Lines, l)
	}
	return r
}

func (r Report) JSON() Report {
	if r.Lines == nil {
		r.Lines = []string{}
	}
	return r
}

type Journal struct {
	mu      sync.Mutex
	entries []string
}

func (j *Journal) Write(e string) {
	j.mu.Lock()
	j.entries = append(j.entries, e)
	j.mu.Unlock()
}

func (j *Journal) Normalize() {
	if j.entries == nil {
		j.entries = []string{}
	}
}

// A list emptied only when its owner closes is not drained as a queue.
type Stmt struct {
	mu    sync.Mutex
	conns []string
}

func (s *Stmt) prepareOn(c string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns = append(s.conns, c)
}

func (s *Stmt) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conns = nil
}

// ---- registries and sets are not queues (go-redis autopipeline, fdQueue) ----

type waiter struct {
	id   int64
	wake chan struct{}
}

type waiterLine struct {
	mu      sync.Mutex
	holders []waiter
}

func (q *waiterLine) hold(id int64) chan struct{} {
	q.mu.Lock()
	defer q.mu.Unlock()
	ch := make(chan struct{})
	q.holders = append(q.holders, waiter{id: id, wake: ch})
	return ch
}

// drop removes one waiter found by its id, then tidies an empty line.
func (q *waiterLine) drop(id int64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, h := range q.holders {
		if h.id == id {
			q.holders = append(q.holders[:i], q.holders[i+1:]...)
			break
		}
	}
	if len(q.holders) == 0 {
		q.holders = nil
	}
}

type gidSet struct {
	mu   sync.Mutex
	gids []int64
}

func (s *gidSet) enter(gid int64) {
	s.mu.Lock()
	s.gids = append(s.gids, gid)
	s.mu.Unlock()
}

// leave swap-removes one id.
func (s *gidSet) leave(gid int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, g := range s.gids {
		if g == gid {
			s.gids[i] = s.gids[len(s.gids)-1]
			s.gids = s.gids[:len(s.gids)-1]
			return
		}
	}
}

// recycle resets a batch taken from a pool: nothing is consumed.
func (s *gidSet) recycle() {
	s.gids = nil
}

// ---- what counts as a bound (issue 18) ----

// Trap, after pocketbase's log batch handler: the length is read into a
// local under the lock and checked after it; at the batch size the producer
// flushes itself.
type LogBatch struct {
	mu   sync.Mutex
	logs []Event
	size int
}

func (b *LogBatch) Handle(e Event) {
	b.mu.Lock()
	b.logs = append(b.logs, e)
	total := len(b.logs)
	b.mu.Unlock()
	if total >= b.size {
		b.WriteAll()
	}
}

func (b *LogBatch) WriteAll() {
	b.mu.Lock()
	out := make([]Event, len(b.logs))
	copy(out, b.logs)
	b.logs = b.logs[:0]
	b.mu.Unlock()
	_ = out
}

// An emptiness test is no bound: the producer wakes the consumer when the
// queue was empty and appends whatever the length.
type Signalled struct {
	mu    sync.Mutex
	items []Event
	wake  chan struct{}
}

func (s *Signalled) Push(e Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.items) == 0 {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
	s.items = append(s.items, e) // want `slice used as a queue: \(Signalled\).Push appends to s.items`
}

func (s *Signalled) pop() Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.items[0]
	s.items = s.items[1:]
	return e
}

// Trap, after pocketbase's TxAppInfo: completion callbacks of one
// transaction, registered by the code and run once when it ends: a list of
// funcs is hooks, as many as the code registers, not data.
type TxInfo struct {
	mu         sync.Mutex
	afterFuncs []func(error) error
}

func (t *TxInfo) OnComplete(fn func(error) error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.afterFuncs = append(t.afterFuncs, fn)
}

func (t *TxInfo) runAfterFuncs(txErr error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, f := range t.afterFuncs {
		f(txErr)
	}
	t.afterFuncs = nil
}

// Trap: emptied in a cleanup, which is teardown, not consumption.
type Tracked struct {
	mu   sync.Mutex
	open []Event
}

func (t *Tracked) Track(e Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.open = append(t.open, e)
}

func (t *Tracked) cleanup() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range t.open {
		_ = e
	}
	t.open = nil
}

// Trap: every producer drains what it appended before it returns (a
// hand-off that serialises notifications, as livekit's prober does): the
// slice holds one entry per producer running at that moment, no backlog.
type StateQueue struct {
	mu     sync.Mutex
	states []bool
	busy   atomic.Bool
	notify func(bool)
}

func (q *StateQueue) Activate() {
	q.mu.Lock()
	q.states = append(q.states, true)
	q.mu.Unlock()
	q.process()
}

func (q *StateQueue) process() {
	if q.busy.Swap(true) {
		return // the producer already processing empties it
	}
	for {
		q.mu.Lock()
		if len(q.states) == 0 {
			q.mu.Unlock()
			break
		}
		s := q.states[0]
		q.states = q.states[1:]
		q.mu.Unlock()
		q.notify(s)
	}
	q.busy.Store(false)
}

// DeferredQueue hands the drain to a goroutine: producers return before it
// runs, and the slice grows while it lags.
type DeferredQueue struct {
	mu    sync.Mutex
	items []Event
}

func (q *DeferredQueue) Push(e Event) { // want Push:"startsGoroutine"
	q.mu.Lock()
	q.items = append(q.items, e) // want `slice used as a queue: \(DeferredQueue\).Push appends to q.items`
	q.mu.Unlock()
	go q.flush()
}

func (q *DeferredQueue) flush() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) > 0 {
		e := q.items[0]
		q.items = q.items[1:]
		_ = e
	}
}

// Trap: the method rebuilds the slice from its argument on every call,
// and the consumer takes the whole of it: one call's list, never a backlog.
type Migration struct {
	mu      sync.Mutex
	pending []Event
}

func (m *Migration) SetPending(events []Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pending = make([]Event, 0, len(events))
	for _, e := range events {
		if e.ID != "" {
			m.pending = append(m.pending, e)
		}
	}
}

func (m *Migration) takePending() []Event {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.pending
	m.pending = nil
	return out
}
