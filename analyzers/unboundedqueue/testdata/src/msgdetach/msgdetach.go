// Package msgdetach has message handlers subscribed with a broker's client
// (after chirpstack's MQTT gateway backend) that start a goroutine for
// every message, and look-alikes that stay silent.
package msgdetach

import (
	"bytes"
	"context"
	"net/http"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"github.com/nats-io/nats.go"
)

type Backend struct {
	conn   mqtt.Client
	nc     *nats.Conn
	rx     chan mqtt.Message // unbuffered: one consumer loop reads it
	url    string
	client *http.Client
	slots  chan struct{}
}

func (b *Backend) Start() { // want Start:`detachesPerCall\(msgdetach.go:32\)` Start:`waitsOnNetwork`
	b.conn.Subscribe("gateway/+/event/+", 0, b.eventHandler)
	b.conn.Subscribe("gateway/+/stats", 0, b.statsHandler)
	b.conn.Subscribe("gateway/+/ack", 0, b.ackHandler)
	b.conn.Subscribe("gateway/+/bounded", 0, b.boundedHandler)
	b.conn.Subscribe("gateway/+/slotted", 0, b.slottedHandler)
	b.nc.Subscribe("uplinks", func(m *nats.Msg) {
		go b.forward(m.Data) // want `goroutine per message: this go statement starts, for every message the broker delivers to this handler, a goroutine that waits on the network`
	})
	b.nc.Subscribe("uplinks.inline", func(m *nats.Msg) {
		b.forward(m.Data) // the client's delivery paces it
	})
}

// Positive: one goroutine per uplink, each waiting with no deadline for the
// one consumer of the unbuffered rx channel.
func (b *Backend) eventHandler(c mqtt.Client, msg mqtt.Message) { // want eventHandler:`startsGoroutine` eventHandler:`detachesPerCall\(msgdetach.go:42\)`
	go b.rxPacketHandler(msg) // want `goroutine per message: this go statement leaves one goroutine per message waiting to send on b.rx`
}

func (b *Backend) rxPacketHandler(msg mqtt.Message) { // want rxPacketHandler:`parksOnSend\(b.rx\)`
	b.rx <- msg
}

// rxLoop is rx's one consumer: one uplink at a time, each an HTTP call.
func (b *Backend) rxLoop() { // want rxLoop:`waitsOnNetwork`
	for msg := range b.rx {
		b.forward(msg.Payload())
	}
}

// Positive: one goroutine per message, each an HTTP call with no timeout.
func (b *Backend) statsHandler(c mqtt.Client, msg mqtt.Message) { // want statsHandler:`startsGoroutine` statsHandler:`detachesPerCall\(msgdetach.go:58\)`
	go func() { // want `goroutine per message: this go statement starts, for every message the broker delivers to this handler, a goroutine that waits on the network`
		_, _ = http.Post(b.url, "application/octet-stream", bytes.NewReader(msg.Payload()))
	}()
}

func (b *Backend) forward(data []byte) { // want forward:`waitsOnNetwork`
	_, _ = http.Post(b.url, "application/octet-stream", bytes.NewReader(data))
}

// Trap: handled in the handler: the client delivers the next message when
// this one is done.
func (b *Backend) ackHandler(c mqtt.Client, msg mqtt.Message) { // want ackHandler:`parksOnSend\(b.rx\)`
	b.rx <- msg
}

// Trap: the goroutine's call has a deadline.
func (b *Backend) boundedHandler(c mqtt.Client, msg mqtt.Message) { // want boundedHandler:`startsGoroutine`
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, b.url, bytes.NewReader(msg.Payload()))
		_, _ = b.client.Do(req)
	}()
}

// Trap: a slot is taken before the goroutine starts.
func (b *Backend) slottedHandler(c mqtt.Client, msg mqtt.Message) { // want slottedHandler:`parksOnSend\(b.slots\)` slottedHandler:`takesSlot`
	b.slots <- struct{}{}
	go func() {
		defer func() { <-b.slots }()
		b.forward(msg.Payload())
	}()
}

// Trap: the same shape, never subscribed: called once, at start-up.
func (b *Backend) replay(c mqtt.Client, msg mqtt.Message) { // want replay:`startsGoroutine` replay:`detachesPerCall\(msgdetach.go:94\)`
	go b.rxPacketHandler(msg)
}
