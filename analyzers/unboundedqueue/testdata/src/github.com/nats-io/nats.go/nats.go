// Package nats is a stub of github.com/nats-io/nats.go: the connection's
// publish appends to the buffer its flusher goroutine writes.
package nats

type Conn struct{ pending [][]byte }

func (nc *Conn) Publish(subj string, data []byte) error {
	nc.pending = append(nc.pending, data)
	return nil
}

type Msg struct {
	Subject string
	Data    []byte
}

type MsgHandler func(msg *Msg)

type Subscription struct{}

// Subscribe hands cb to the connection's dispatcher, which calls it once
// for every message delivered on subj.
func (nc *Conn) Subscribe(subj string, cb MsgHandler) (*Subscription, error) { return &Subscription{}, nil }
