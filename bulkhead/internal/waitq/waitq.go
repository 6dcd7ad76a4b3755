// Package waitq is the queue of callers waiting for a slot, shared by the
// runtime's two admission points: the lane limiter of package bulkhead and
// the connection gate of the lane pools (internal/gate).
//
// A Queue is a doubly linked FIFO of Waiters, so that a waiter whose caller
// gives up leaves from wherever it stands in constant time. Each Waiter has
// a channel of one place on which it is signalled exactly once per wait:
// granted a slot, or (for the limiter) timed out; the caller's data, Val,
// says which. Who is signalled, when, and what a signal means stays with
// the caller: the limiter hands a slot to the first eligible waiter and
// times out waiters from the head, the gate hands slots to the head only.
//
// Nothing here locks. The links, Queued and Len belong to the owner's
// mutex; Ready and Signal need no lock, and Signal should be sent after the
// lock is released, so the woken goroutine does not run into it.
//
// The types are generic over the caller's data rather than an interface, so
// every operation compiles to the same field loads and stores the owners
// had in their own copies, and inlines.
package waitq

// Waiter is one caller in a Queue. Val is the owner's, guarded by its lock.
// Val comes first so that an empty Val (the gate's) adds no padding.
type Waiter[T any] struct {
	Val        T
	ready      chan struct{} // one value per wait, sent by Signal
	prev, next *Waiter[T]
	queued     bool
}

// New makes a waiter with its channel. A waiter may be reused (the limiter
// pools them) once its wait is over: out of the queue and its signal taken.
func New[T any]() *Waiter[T] {
	return &Waiter[T]{ready: make(chan struct{}, 1)}
}

// Ready is where the waiter's signal arrives.
func (w *Waiter[T]) Ready() <-chan struct{} { return w.ready }

// Signal wakes the waiter. Send it once per wait, to a waiter no longer in
// the queue (Remove, or Batch). It never blocks: the channel has a place,
// and the previous wait took its value.
func (w *Waiter[T]) Signal() { w.ready <- struct{}{} }

// Queued reports whether w is in a queue. A caller that gave up checks it
// under the owner's lock: if it is still queued it removes itself and
// nobody will signal it; if not, it was granted (or timed out) a moment
// ago and its signal is on the way, so it must take it before going on.
func (w *Waiter[T]) Queued() bool { return w.queued }

// Next is the waiter behind w in the queue, nil at the tail.
func (w *Waiter[T]) Next() *Waiter[T] { return w.next }

// Queue is a FIFO of waiters. The zero value is an empty queue.
type Queue[T any] struct {
	head, tail *Waiter[T]
	n          int
}

// Len is how many waiters are queued.
func (q *Queue[T]) Len() int { return q.n }

// Front is the longest-waiting waiter, nil if the queue is empty.
func (q *Queue[T]) Front() *Waiter[T] { return q.head }

// PushBack queues w at the tail. w must not be in a queue.
func (q *Queue[T]) PushBack(w *Waiter[T]) {
	w.queued = true
	w.prev = q.tail
	if q.tail != nil {
		q.tail.next = w
	} else {
		q.head = w
	}
	q.tail = w
	q.n++
}

// Remove takes w out of q, wherever it stands. w must be in q.
func (q *Queue[T]) Remove(w *Waiter[T]) {
	if w.prev != nil {
		w.prev.next = w.next
	} else {
		q.head = w.next
	}
	if w.next != nil {
		w.next.prev = w.prev
	} else {
		q.tail = w.prev
	}
	w.prev, w.next, w.queued = nil, nil, false
	q.n--
}

// Batch collects waiters taken out of a queue under the owner's lock, to be
// signalled together once it is released. It chains them through their
// free links, so collecting costs no allocation; the zero value is empty.
type Batch[T any] struct {
	top *Waiter[T]
}

// Push adds w, which must have been removed from its queue.
func (b *Batch[T]) Push(w *Waiter[T]) {
	w.next, b.top = b.top, w
}

// Signal wakes every waiter in the batch, the last pushed first, and
// empties it. Each waiter's link is read before it is woken: once woken it
// may be reused at once.
func (b *Batch[T]) Signal() {
	for w := b.top; w != nil; {
		next := w.next
		w.next = nil
		w.Signal()
		w = next
	}
	b.top = nil
}
