// Package nats is a stub of github.com/nats-io/nats.go: a synchronous
// subscription's next message.
package nats

import (
	"context"
	"time"
)

type Msg struct{ Data []byte }

type Subscription struct{}

func (s *Subscription) NextMsg(timeout time.Duration) (*Msg, error) { return nil, nil }

func (s *Subscription) NextMsgWithContext(ctx context.Context) (*Msg, error) { return nil, nil }
