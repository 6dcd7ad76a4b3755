// Package brokerwait announces changes on a message broker from request
// handlers, in a goroutine per request.
package brokerwait

import (
	"net/http"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/nats-io/nats.go"
)

type Notifier struct {
	mq mqtt.Client
	nc *nats.Conn
}

// announce waits for the broker's acknowledgement with no bound: while
// the broker is slow, every request leaves one more goroutine waiting.
func (n *Notifier) announce(topic string, body []byte) error { // want announce:"waitsOnNetwork"
	token := n.mq.Publish(topic, 1, false, body)
	token.Wait()
	return token.Error()
}

func (n *Notifier) Update(w http.ResponseWriter, r *http.Request) { // want Update:"startsGoroutine"
	go n.announce("peers/update", []byte(r.URL.Path)) // want `goroutine per request: this go statement starts, on every request, a goroutine that waits on the network \(\(mqtt.Token\).Wait\) with no deadline`
	w.WriteHeader(http.StatusAccepted)
}

// ---- traps: must stay silent ----

// announceWithin waits at most five seconds for the acknowledgement.
func (n *Notifier) announceWithin(topic string, body []byte) error {
	token := n.mq.Publish(topic, 1, false, body)
	if !token.WaitTimeout(5 * time.Second) {
		return nil
	}
	return token.Error()
}

func (n *Notifier) UpdateWithin(w http.ResponseWriter, r *http.Request) { // want UpdateWithin:"startsGoroutine"
	go n.announceWithin("peers/update", []byte(r.URL.Path))
	w.WriteHeader(http.StatusAccepted)
}

// UpdateBuffered hands the message to the NATS connection's buffer, which
// its flusher writes: the goroutine returns at once.
func (n *Notifier) UpdateBuffered(w http.ResponseWriter, r *http.Request) { // want UpdateBuffered:"startsGoroutine"
	go n.nc.Publish("peers.update", []byte(r.URL.Path))
	w.WriteHeader(http.StatusAccepted)
}
