package fanout

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// ---- shape 1, the range-over-channel loop written by hand ----

type mailWorker struct {
	queue chan []Order
	subs  chan string
	stop  chan bool
	wake  chan struct{}
	sem   chan struct{}
}

func (w *mailWorker) start(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case batch := <-w.queue:
			go func() { // want `goroutine per item: this go statement starts one goroutine for every value received from w.queue`
				for _, o := range batch {
					notify(ctx, o)
				}
			}()
		}
	}
}

// A case after the one that starts the goroutine receives too: that
// receive is another case's item, not a wait for what this one started.
func (w *mailWorker) startTwoStreams(ctx context.Context) {
	for {
		select {
		case o := <-w.queue:
			go notify(ctx, o[0]) // want `every value received from w.queue`
		case name, ok := <-w.subs:
			if !ok {
				return
			}
			if name != "" {
				go notify(ctx, Order{ID: name}) // want `every value received from w.subs`
			}
		case <-w.stop:
			return
		}
	}
}

func (w *mailWorker) receiveStatement(ctx context.Context) {
	for {
		o := <-w.queue
		go notify(ctx, o[0]) // want `every value received from w.queue`
	}
}

// ---- traps ----

// A signal carries no item: one goroutine per wake-up the code sends.
func (w *mailWorker) perSignal(ctx context.Context) {
	for {
		select {
		case <-w.wake:
			go notify(ctx, Order{})
		case <-w.stop:
			return
		}
	}
}

// A tick: the clock sets the pace, not input.
func tickLoop(ctx context.Context) {
	t := time.NewTicker(time.Second)
	for {
		select {
		case now := <-t.C:
			go notify(ctx, Order{ID: now.String()})
		case <-ctx.Done():
			return
		}
	}
}

// A slot taken before the select bounds the goroutines.
func (w *mailWorker) slotBeforeSelect(ctx context.Context) { // want slotBeforeSelect:"takesSlot" slotBeforeSelect:`parksOnSend\(w.sem\)`
	for {
		w.sem <- struct{}{}
		select {
		case o := <-w.queue:
			go func() {
				defer func() { <-w.sem }()
				notify(ctx, o[0])
			}()
		case <-ctx.Done():
			return
		}
	}
}

// The case waits for what it started before the next receive.
func (w *mailWorker) joinedInCase(ctx context.Context) {
	done := make(chan error)
	for {
		select {
		case o := <-w.queue:
			go func() { done <- notify(ctx, o[0]) }()
			<-done
		case <-ctx.Done():
			return
		}
	}
}

// A counted loop's receive is a worker pool reading its share.
func countedReceive(ctx context.Context, jobs chan Order) {
	for i := 0; i < 4; i++ {
		o := <-jobs
		go notify(ctx, o)
	}
}

// The goroutine is a reader per source: each one loops for its source's
// life (one per subscription the code accepts), not one per item.
func (w *mailWorker) readerPerSubscription(ctx context.Context, feeds chan chan Order) {
	for {
		select {
		case feed := <-feeds:
			go func() {
				for o := range feed {
					notify(ctx, o)
				}
			}()
		case <-ctx.Done():
			return
		}
	}
}

type topic struct {
	status  int32
	updates chan string
}

type hub struct {
	topics     sync.Map
	userStatus chan string
	userEvents chan string
}

// A goroutine whose work only computes in memory (sync.Map's Range, atomic
// compare-and-swap) cannot wait: it ends in CPU time however slow any
// dependency is. The one that sends to each topic can wait on its reader.
func (h *hub) run() {
	for {
		select {
		case uid := <-h.userStatus:
			go h.markTopics(uid)
		case uid := <-h.userEvents:
			go h.tellTopics(uid) // want `every value received from h.userEvents`
		}
	}
}

func (h *hub) markTopics(uid string) {
	h.topics.Range(func(_, v any) bool {
		t := v.(*topic)
		for {
			old := atomic.LoadInt32(&t.status)
			if uid == "" || atomic.CompareAndSwapInt32(&t.status, old, old|1) {
				return true
			}
		}
	})
}

func (h *hub) tellTopics(uid string) {
	h.topics.Range(func(_, v any) bool {
		v.(*topic).updates <- uid
		return true
	})
}

// A goroutine per element that only computes is parallelism, not a queue.
func sumEach(parts [][]int, out []int) {
	for i, p := range parts {
		go func() {
			for _, x := range p {
				out[i] += x
			}
		}()
	}
}

// ---- a loop paced by a fixed wait every round ----

// pacedSender is gocron's notifier: one send goroutine per message, then a
// second's sleep before the next. At most one starts per second, as a
// rate.Limiter's Wait would allow: the rate bounds how many run.
func pacedSender(ctx context.Context, queue chan Order) {
	for o := range queue {
		go notify(ctx, o)
		time.Sleep(time.Second)
	}
}

// sleepsOnlyOnError waits only after a failure: a burst of good messages
// starts a goroutine each, at once.
func sleepsOnlyOnError(ctx context.Context, queue chan Order) {
	for o := range queue {
		if o.ID == "" {
			time.Sleep(time.Second)
			continue
		}
		go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every value received from queue`
	}
}

// continuesPastTheSleep starts a goroutine and goes round before the
// sleep: the rounds that start one do not wait.
func continuesPastTheSleep(ctx context.Context, queue chan Order) {
	for o := range queue {
		if o.ID != "" {
			go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every value received from queue`
			continue
		}
		time.Sleep(time.Second)
	}
}

// sleepsNothing: a zero sleep does not wait.
func sleepsNothing(ctx context.Context, queue chan Order) {
	for o := range queue {
		go notify(ctx, o) // want `goroutine per item: this go statement starts one goroutine for every value received from queue`
		time.Sleep(0)
	}
}

// sleepsFirst waits, then starts: every round that starts one has waited.
func sleepsFirst(ctx context.Context, queue chan Order) {
	for o := range queue {
		time.Sleep(time.Second)
		if o.ID == "" {
			continue
		}
		go notify(ctx, o)
	}
}
