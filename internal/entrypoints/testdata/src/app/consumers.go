package app

import (
	"context"

	"github.com/IBM/sarama"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A message handler handed to a broker's subscription runs for every
// message for as long as the subscription lasts: a consumer, background
// work, whatever the function looks like.
func subscribe(nc *nats.Conn, cons jetstream.Consumer, group sarama.ConsumerGroup, s *Server) {
	nc.Subscribe("orders", s.onOrder)                                  // want `background: message handler subscribed with Conn.Subscribe: \(\*app.Server\).onOrder`
	nc.QueueSubscribe("audit", "workers", func(m *nats.Msg) { _ = m }) // want `background: message handler subscribed with Conn.QueueSubscribe: func literal in app.subscribe`
	cons.Consume(handlerFor(s))                                        // want `background: message handler subscribed with Consumer.Consume: func literal in app.handlerFor`
	group.Consume(context.Background(), []string{"t"}, claims{})       // want `background: message handler subscribed with ConsumerGroup.Consume: \(app.claims\).Cleanup` `background: message handler subscribed with ConsumerGroup.Consume: \(app.claims\).ConsumeClaim` `background: message handler subscribed with ConsumerGroup.Consume: \(app.claims\).Setup`

	// A request and its reply: nothing is subscribed, no handler runs.
	nc.Request("prices", nil)
}

func (s *Server) onOrder(m *nats.Msg) {}

// handlerFor returns the handler: what runs is what it returns.
func handlerFor(s *Server) jetstream.MessageHandler {
	return func(m jetstream.Msg) { m.Ack() }
}

type claims struct{}

func (claims) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (claims) Cleanup(sarama.ConsumerGroupSession) error { return nil }
func (claims) ConsumeClaim(sarama.ConsumerGroupSession, sarama.ConsumerGroupClaim) error {
	return nil
}
