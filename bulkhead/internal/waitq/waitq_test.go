package waitq

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// check compares q with the model, front to back, and back to front
// through the prev links.
func check[T any](t *testing.T, q *Queue[T], model []*Waiter[T]) {
	t.Helper()
	if q.Len() != len(model) {
		t.Fatalf("Len %d, want %d", q.Len(), len(model))
	}
	var fwd []*Waiter[T]
	for w := q.Front(); w != nil; w = w.Next() {
		if !w.Queued() {
			t.Fatal("a waiter in the queue says it is not queued")
		}
		fwd = append(fwd, w)
	}
	var back []*Waiter[T]
	for w := q.tail; w != nil; w = w.prev {
		back = append(back, w)
	}
	slices.Reverse(back)
	if !slices.Equal(fwd, model) || !slices.Equal(back, model) {
		t.Fatalf("order: forward %v, backward %v, want %v", fwd, back, model)
	}
}

// TestQueueAgainstModel: random pushes and removals from the front, the
// back and the middle keep FIFO order, the count and both link directions,
// and a removed waiter is unlinked and not queued.
func TestQueueAgainstModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q Queue[int]
	var model []*Waiter[int]
	for i := range 5000 {
		if len(model) == 0 || rng.IntN(3) > 0 {
			w := New[int]()
			w.Val = i
			q.PushBack(w)
			model = append(model, w)
		} else {
			k := rng.IntN(len(model))
			if rng.IntN(2) == 0 {
				k = 0 // as the owners do most: the head leaves
			}
			w := model[k]
			q.Remove(w)
			model = slices.Delete(model, k, k+1)
			if w.Queued() || w.prev != nil || w.next != nil {
				t.Fatalf("removed waiter %d still linked", w.Val)
			}
		}
		check(t, &q, model)
	}
	for len(model) > 0 {
		q.Remove(q.Front())
		model = model[1:]
	}
	check(t, &q, model)
	if q.head != nil || q.tail != nil {
		t.Fatal("empty queue keeps links")
	}
}

// TestReuse: a waiter taken out and signalled can wait again, in another
// place of the queue, with its one-place channel ready for the next signal.
func TestReuse(t *testing.T) {
	var q Queue[struct{}]
	a, b := New[struct{}](), New[struct{}]()
	q.PushBack(a)
	q.PushBack(b)
	q.Remove(a)
	a.Signal()
	<-a.Ready()
	q.PushBack(a)
	check(t, &q, []*Waiter[struct{}]{b, a})
	q.Remove(a)
	a.Signal() // blocks, and the test times out, if the first signal was not taken
	<-a.Ready()
}

// TestBatch: every waiter in a batch is woken exactly once, left unlinked,
// and the batch is empty afterwards, so signalling it again wakes nobody.
func TestBatch(t *testing.T) {
	var q Queue[int]
	ws := make([]*Waiter[int], 4)
	for i := range ws {
		ws[i] = New[int]()
		q.PushBack(ws[i])
	}
	var b Batch[int]
	for _, w := range ws[:3] {
		q.Remove(w)
		b.Push(w)
	}
	check(t, &q, ws[3:])
	b.Signal()
	b.Signal()
	for i, w := range ws[:3] {
		if len(w.ready) != 1 || w.next != nil {
			t.Errorf("batched waiter %d: %d signals, linked %v; want 1 signal, unlinked", i, len(w.ready), w.next != nil)
		}
	}
	if len(ws[3].ready) != 0 {
		t.Error("the waiter still queued was signalled")
	}
}

// TestGiveUpRace runs the owners' protocol under contention: waiters that
// give up remove themselves if still queued, or else take the signal that
// is on its way; a releaser hands slots to the head. No signal is lost or
// doubled: every slot handed out comes back.
func TestGiveUpRace(t *testing.T) {
	const slots, callers, rounds = 2, 16, 300
	var mu sync.Mutex
	var q Queue[struct{}]
	free := slots
	release := func() {
		mu.Lock()
		w := q.Front()
		if w != nil {
			q.Remove(w)
		} else {
			free++
		}
		mu.Unlock()
		if w != nil {
			w.Signal()
		}
	}
	var wg sync.WaitGroup
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 3))
			w := New[struct{}]()
			for range rounds {
				mu.Lock()
				if free > 0 {
					free--
					mu.Unlock()
					release()
					continue
				}
				q.PushBack(w)
				mu.Unlock()
				if rng.IntN(2) == 0 { // gives up at once
					mu.Lock()
					if w.Queued() {
						q.Remove(w)
						mu.Unlock()
						continue
					}
					mu.Unlock()
				}
				<-w.Ready() // granted: the slot is ours
				release()
			}
		}()
	}
	wg.Wait()
	if free != slots || q.Len() != 0 {
		t.Errorf("free %d of %d, %d still queued", free, slots, q.Len())
	}
}
