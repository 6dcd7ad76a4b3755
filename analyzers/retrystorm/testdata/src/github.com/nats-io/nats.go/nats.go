// Package nats is a stub of github.com/nats-io/nats.go: a synchronous
// subscription's next message, the connection's publish (its flusher
// goroutine writes it) and the JetStream context's, which waits for the
// stream's acknowledgement; and what reads the client's memory.
package nats

import (
	"context"
	"time"
)

type Msg struct{ Data []byte }

type Subscription struct{}

func (s *Subscription) NextMsg(timeout time.Duration) (*Msg, error) { return nil, nil }

func (s *Subscription) NextMsgWithContext(ctx context.Context) (*Msg, error) { return nil, nil }

// Pending counts the messages the client holds for the subscription.
func (s *Subscription) Pending() (int, int, error) { return 0, 0, nil }

type Conn struct{ pending [][]byte }

func (nc *Conn) Publish(subj string, data []byte) error {
	nc.pending = append(nc.pending, data)
	return nil
}

// LastError is the connection's last error, from memory.
func (nc *Conn) LastError() error { return nil }

type PubAck struct{ Sequence uint64 }

type JetStream interface {
	Publish(subj string, data []byte) (*PubAck, error)
}
