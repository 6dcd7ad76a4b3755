// Package jetstream is a stub of JetStream's pull consumer.
package jetstream

type Msg interface {
	Data() []byte
	Ack() error
}

type MessageHandler func(msg Msg)

type ConsumeContext interface{ Stop() }

type Consumer interface {
	Consume(handler MessageHandler) (ConsumeContext, error)
}
