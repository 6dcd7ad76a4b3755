// Package requestsend has requests that wait, with no deadline, on a send
// to a channel every request shares (after crowdsec's decision deletes and
// its AppSec handler), and look-alikes: a send that selects on the
// request's context or drops, a signal, the request's own channel, a send
// from a goroutine the request starts, and background code.
package requestsend

import "net/http"

type Controller struct {
	Deletes chan []int
	Wake    chan struct{}
}

var events = make(chan string, 16)

func (c *Controller) Delete(w http.ResponseWriter, r *http.Request) { // want Delete:"parksOnSend\\(c.Deletes\\)"
	c.Deletes <- []int{1} // want `send with no deadline on every request: \(\*requestsend.Controller\).Delete waits here until a consumer takes its value from Deletes, a channel every request shares`
}

// Through a helper of the package, on the request's path.
func (c *Controller) DeleteAll(w http.ResponseWriter, r *http.Request) {
	c.enqueue([]int{2})
}

func (c *Controller) enqueue(ids []int) { // want enqueue:"parksOnSend\\(c.Deletes\\)"
	c.Deletes <- ids // want `send with no deadline on every request: \(\*requestsend.Controller\).DeleteAll waits here until a consumer takes its value from Deletes`
}

func Publish(w http.ResponseWriter, r *http.Request) { // want Publish:"parksOnSend\\(events\\)"
	events <- r.URL.Path // want `send with no deadline on every request: requestsend.Publish waits here until a consumer takes its value from events`
}

// Trap: the send gives up with the request.
func (c *Controller) DeleteCtx(w http.ResponseWriter, r *http.Request) {
	select {
	case c.Deletes <- []int{3}:
	case <-r.Context().Done():
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// Trap: the value is dropped when the queue is full.
func PublishOrDrop(w http.ResponseWriter, r *http.Request) {
	select {
	case events <- r.URL.Path:
	default:
	}
}

// Trap: a signal, not a value for a consumer to work on.
func (c *Controller) Poke(w http.ResponseWriter, r *http.Request) { // want Poke:"parksOnSend\\(c.Wake\\)"
	c.Wake <- struct{}{}
}

// Trap: a channel the request made itself.
func Work(w http.ResponseWriter, r *http.Request) {
	done := make(chan int, 1)
	done <- 1
	<-done
}

// Trap: the request does not wait for the goroutine it starts (which
// starts one per call: a fact).
func Async(w http.ResponseWriter, r *http.Request) { // want Async:"startsGoroutine"
	go func() { events <- "async" }()
}

// Trap: background code, on no request's path.
func (c *Controller) Flush() { // want Flush:"parksOnSend\\(c.Deletes\\)"
	c.Deletes <- nil
}

// ---- channels handed to importers ----

// Uploads makes its channel, exports it and never reads it: the program
// that embeds the handler consumes it, out of this package's sight.
type Uploads struct{ Created chan string }

func NewUploads() *Uploads { return &Uploads{Created: make(chan string)} }

func (u *Uploads) Post(w http.ResponseWriter, r *http.Request) { // want Post:"parksOnSend\\(u.Created\\)"
	u.Created <- r.URL.Path
}

// notifier hands its channel out through a method.
type notifier struct{ events chan string }

func newNotifier() *notifier { return &notifier{events: make(chan string, 8)} }

func (n *notifier) Events() <-chan string { return n.events }

func (n *notifier) Notify(w http.ResponseWriter, r *http.Request) { // want Notify:"parksOnSend\\(n.events\\)"
	n.events <- r.URL.Path
}

// Audit makes and exports its channel but drains it here, with a network
// call per value: judged here, and reported.
type Audit struct{ Entries chan string }

func NewAudit() *Audit { // want NewAudit:"detachesPerCall" NewAudit:"startsGoroutine"
	a := &Audit{Entries: make(chan string)}
	go a.drain()
	return a
}

func (a *Audit) drain() { // want drain:"waitsOnNetwork"
	for e := range a.Entries {
		http.Post("http://audit/", "text/plain", nil)
		_ = e
	}
}

func (a *Audit) Record(w http.ResponseWriter, r *http.Request) { // want Record:"parksOnSend\\(a.Entries\\)"
	a.Entries <- r.URL.Path // want `send with no deadline on every request: \(\*requestsend.Audit\).Record waits here until a consumer takes its value from Entries`
}
