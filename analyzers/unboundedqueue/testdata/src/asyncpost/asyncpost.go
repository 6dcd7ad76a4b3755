// Package asyncpost has functions that start a goroutine on every call, as
// memos' webhook.PostAsync and pocketbase's routine.FireAndForget do, and
// look-alikes that do not.
package asyncpost

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
)

type Payload struct{ URL string }

// Deliver is the transport Post hands p to (wired by the program).
var Deliver func(*Payload) error

// Post delivers p through the wired transport: work that may wait.
func Post(p *Payload) error { return Deliver(p) }

// PostAsync posts in a goroutine of its own and does not wait.
func PostAsync(p *Payload) { // want PostAsync:"startsGoroutine"
	go func() {
		_ = Post(p)
	}()
}

// FireAndForget runs f in a new goroutine.
func FireAndForget(f func(), wg ...*sync.WaitGroup) { // want FireAndForget:"startsGoroutine"
	if len(wg) > 0 {
		wg[0].Add(1)
	}
	go func() {
		if len(wg) > 0 {
			defer wg[0].Done()
		}
		f()
	}()
}

// Dispatcher starts its one delivery loop on the first Send, guarded by a
// sync.Once: one goroutine in all, not one per call.
type Dispatcher struct {
	once  sync.Once
	queue chan *Payload
}

func (d *Dispatcher) loop() {
	for p := range d.queue {
		_ = Post(p)
	}
}

func (d *Dispatcher) Send(p *Payload) { // want Send:"parksOnSend\\(d.queue\\)"
	d.once.Do(func() { go d.loop() })
	d.queue <- p
}

// Pool runs work in goroutines, at most cap(sem) at once: the slot is
// taken before the goroutine starts.
type Pool struct{ sem chan struct{} }

func (p *Pool) Submit(f func()) { // want Submit:"takesSlot" Submit:"parksOnSend\\(p.sem\\)"
	p.sem <- struct{}{}
	go func() {
		defer func() { <-p.sem }()
		f()
	}()
}

// Limited takes a slot inside the goroutine before the work: the work is
// bounded, the goroutines waiting for a slot are not.
type Limited struct{ sem chan struct{} }

func (l *Limited) Go(f func()) { // want Go:"startsGoroutine"
	go func() {
		l.sem <- struct{}{}
		defer func() { <-l.sem }()
		f()
	}()
}

// PostWait starts a goroutine and waits for its answer: one call, one
// goroutine, gone when it returns.
func PostWait(p *Payload) error {
	done := make(chan error, 1)
	go func() { done <- Post(p) }()
	return <-done
}

// PostMaybe starts a goroutine only when asked: not on every call.
func PostMaybe(p *Payload, async bool) {
	if async {
		go Post(p)
		return
	}
	_ = Post(p)
}

// Receiver starts its loops on the first Start only: a guard returns on
// every later call.
type Receiver struct{ status int32 }

func (r *Receiver) loop() {}

func (r *Receiver) Start() {
	if !atomic.CompareAndSwapInt32(&r.status, 0, 1) {
		return
	}
	go r.loop()
	go r.loop()
}

// Drain hands its caller the WaitGroup of the goroutine it starts, as
// openfga's iterator.Drain: Drain(ch).Wait() drains one channel at a time.
func Drain(ch <-chan *Payload) *sync.WaitGroup {
	wg := &sync.WaitGroup{}
	wg.Add(1)
	go func() {
		for range ch {
		}
		wg.Done()
	}()
	return wg
}

// Merge returns the channel its goroutine closes when done.
func Merge(chans []<-chan *Payload) <-chan *Payload {
	out := make(chan *Payload)
	go func() {
		close(out)
	}()
	return out
}

var counts = map[string]int{}

// Snapshot starts a refresh in a goroutine and returns the counts.
func Snapshot() map[string]int { // want Snapshot:"startsGoroutine"
	go func() {
		if Post(&Payload{URL: "http://stats"}) == nil {
			counts["a"]++
		}
	}()
	return counts
}

// AuditAsync writes one audit line in a goroutine of its own. The work
// only formats and logs: it waits on no dependency and ends on its own, so
// AuditAsync is no starter whose goroutines can queue.
func AuditAsync(event string) {
	go writeAudit(event)
}

func writeAudit(event string) {
	slog.Info("audit", "event", strings.ToUpper(event))
}

// ---- a goroutine that serves the value its function returns ----

// Object is read through requests a goroutine serves.
type Object struct {
	reqs  chan int
	resps chan *Payload
}

func (o *Object) Read() *Payload { // want Read:`parksOnSend\(o\.reqs\)`
	o.reqs <- 1
	return <-o.resps
}

// GetObject starts the goroutine that serves the object it returns (as
// minio's GetObject does): one per object its caller holds and reads, not
// work per call, whatever the name check before it.
func GetObject(url string) *Object {
	if url == "" {
		return nil
	}
	reqs, resps := make(chan int), make(chan *Payload)
	go func() {
		for range reqs {
			resps <- &Payload{URL: url}
			_ = Post(&Payload{URL: url})
		}
	}()
	return &Object{reqs: reqs, resps: resps}
}

// readEach reads each object before it gets the next: silent.
func readEach(urls []string) {
	for _, u := range urls {
		if o := GetObject(u); o != nil {
			o.Read()
		}
	}
}

// ---- a service's own background runner (yorkie's Background.Go) ----

// Background runs work in goroutines it tracks with a WaitGroup, until
// Close: a check of its closing channel comes first, which returns only
// after shutdown; before that every call starts one.
type Background struct {
	mu      sync.RWMutex
	closing chan struct{}
	wg      sync.WaitGroup
}

func (b *Background) Go(f func(ctx context.Context)) { // want Go:"startsGoroutine"
	b.mu.RLock()
	defer b.mu.RUnlock()
	select {
	case <-b.closing:
		slog.Warn("closed; skipping")
		return
	default:
	}
	b.wg.Go(func() {
		f(context.Background())
	})
}

func (b *Background) Close() {
	b.mu.Lock()
	close(b.closing)
	b.mu.Unlock()
	b.wg.Wait()
}

// Backend hands its callers' work on to its runner: a starter too.
type Backend struct{ background *Background }

func (b *Backend) Go(f func(ctx context.Context)) { // want Go:"startsGoroutine"
	b.background.Go(f)
}

// Traps: a runner whose check closes the channel it tests (once only), and
// one that waits for what it started.
type OnceRunner struct{ started chan struct{} }

func (o *OnceRunner) Go(f func()) {
	select {
	case <-o.started:
		return
	default:
		close(o.started)
	}
	go f()
}

type WaitingRunner struct{ wg sync.WaitGroup }

func (w *WaitingRunner) Go(f func()) {
	w.wg.Go(f)
	w.wg.Wait()
}

// ---- a server started once per port (argo-events' startServer) ----

type Controller struct {
	mu     sync.Mutex
	active map[string]bool
}

// StartServer starts the port's server only if none runs on it yet: the
// guard reads the controller's map of started servers, state, and the
// call records its port there. Not a goroutine per call.
func StartServer(c *Controller, port string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.active[port]; !ok {
		c.active[port] = true
		go func() {
			_ = Post(&Payload{URL: "http://" + port})
		}()
	}
}

// StartEach is handed its options: the map is the call's input, and each
// call with "async" set starts one.
func StartEach(opts map[string]string, p *Payload) { // want StartEach:"startsGoroutine"
	if opts["async"] != "" {
		go func() { _ = Post(p) }()
	}
}
