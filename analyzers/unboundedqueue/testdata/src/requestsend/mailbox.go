package requestsend // want package:`noContextWaitsReported\(9\)`

import (
	"log"
	"net/http"
	"reflect"
	"strings"
	"time"
)

type client struct {
	id   string
	msgs chan string
}

// Broker is navidrome's event broker: one loop owns the clients and only
// computes between receives (a map, a log line, a send that drops when a
// client is full), so a request that registers waits for its CPU time
// only: an actor's mailbox, not a queue.
type Broker struct {
	subscribing   chan client
	unsubscribing chan client
	publish       chan Event
}

// Event is what the broker publishes; the package's events marshal
// themselves.
type Event interface{ Data() string }

type Refresh struct{ Resource string }

func (r *Refresh) Data() string { return reflect.TypeOf(r).String() + ":" + r.Resource }

func (b *Broker) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"parksOnSend\\(b.subscribing\\)"
	c := client{id: r.RemoteAddr, msgs: make(chan string, 8)}
	b.subscribing <- c
	defer b.leave(c)
	for m := range c.msgs {
		_, _ = w.Write([]byte(m))
	}
}

func (b *Broker) leave(c client) { // want leave:"parksOnSend\\(b.unsubscribing\\)"
	b.unsubscribing <- c
}

func (b *Broker) listen() {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	clients := map[client]bool{}
	for {
		select {
		case c := <-b.subscribing:
			clients[c] = true
			log.Printf("client %s added, %d in all", c.id, len(clients))
		case c := <-b.unsubscribing:
			close(c.msgs)
			delete(clients, c)
		case e := <-b.publish:
			for c := range clients {
				sendOrDrop(c, e.Data())
			}
		case <-tick.C:
			for c := range clients {
				sendOrDrop(c, "ping")
			}
		}
	}
}

func sendOrDrop(c client, m string) {
	select {
	case c.msgs <- m:
	default:
	}
}

// Mailer's queue is read by a loop that sends each mail over HTTP: while
// the mail server is slow, every request waits behind the mails before it.
type Mailer struct {
	outbox chan string
	client *http.Client
}

func (m *Mailer) Send(w http.ResponseWriter, r *http.Request) { // want Send:"parksOnSend\\(m.outbox\\)"
	m.outbox <- r.URL.Query().Get("to") // want `send with no deadline on every request: \(\*requestsend.Mailer\).Send waits here until a consumer takes its value from outbox`
}

func (m *Mailer) run() { // want run:"waitsOnNetwork"
	for to := range m.outbox {
		resp, err := m.client.Get("http://mail.example/" + to)
		if err == nil {
			_ = resp.Body.Close()
		}
	}
}

// Relay's consumer hands each value on with a plain send: it waits for the
// next consumer, and the requests wait with it.
type Relay struct {
	in, out chan string
}

func (rl *Relay) Accept(w http.ResponseWriter, r *http.Request) { // want Accept:"parksOnSend\\(rl.in\\)"
	rl.in <- r.URL.Path // want `send with no deadline on every request: \(\*requestsend.Relay\).Accept waits here until a consumer takes its value from in`
}

func (rl *Relay) run() { // want run:"parksOnSend\\(rl.out\\)"
	for v := range rl.in {
		rl.out <- strings.ToUpper(v)
	}
}

// Hooked's consumer calls a function value: anything may run there.
type Hooked struct {
	in     chan string
	handle func(string)
}

func (h *Hooked) Accept(w http.ResponseWriter, r *http.Request) { // want Accept:"parksOnSend\\(h.in\\)"
	h.in <- r.URL.Path // want `send with no deadline on every request: \(\*requestsend.Hooked\).Accept waits here until a consumer takes its value from in`
}

func (h *Hooked) run() {
	for v := range h.in {
		h.handle(v)
	}
}

// Recorder's consumer saves through an interface no type of the package
// implements: the store may be a database.
type Recorder struct {
	in    chan string
	store Store
}

type Store interface{ Save(v string) error }

func (rc *Recorder) Record(w http.ResponseWriter, r *http.Request) { // want Record:"parksOnSend\\(rc.in\\)"
	rc.in <- r.URL.Path // want `send with no deadline on every request: \(\*requestsend.Recorder\).Record waits here until a consumer takes its value from in`
}

func (rc *Recorder) run() {
	for v := range rc.in {
		_ = rc.store.Save(v)
	}
}
