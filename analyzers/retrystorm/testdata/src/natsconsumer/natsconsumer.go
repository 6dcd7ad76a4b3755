// Package natsconsumer reads a NATS subscription in a loop.
package natsconsumer

import (
	"context"
	"log"
	"time"

	"github.com/nats-io/nats.go"
)

// consumeForever: once the subscription is closed or drained,
// NextMsgWithContext fails at once every time.
func consumeForever(ctx context.Context, sub *nats.Subscription, handle func(*nats.Msg)) {
	for { // want `this loop calls \(\*nats.Subscription\).NextMsgWithContext again at once when it fails, with no pause and no way out on an error`
		msg, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			log.Print(err)
			continue
		}
		handle(msg)
	}
}

// consumeWithTimeout: NextMsg waits up to a second for a message itself, so
// its timeout paces the loop.
func consumeWithTimeout(sub *nats.Subscription, handle func(*nats.Msg)) {
	for {
		msg, err := sub.NextMsg(time.Second)
		if err != nil {
			continue
		}
		handle(msg)
	}
}

// messages is the service's own interface around its subscription, kept
// so that tests can hand a fake: nats' Subscription implements it.
type messages interface {
	NextMsgWithContext(ctx context.Context) (*nats.Msg, error)
}

// consumeThrough reads through the interface: the same spin.
func consumeThrough(ctx context.Context, sub messages, handle func(*nats.Msg)) {
	for { // want `this loop calls \(natsconsumer.messages\).NextMsgWithContext again at once when it fails, with no pause and no way out on an error`
		msg, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			continue
		}
		handle(msg)
	}
}

// mailbox is read the same way, but no connection type implements it (a
// subscription has no Requeue): its messages come from this process.
type mailbox interface {
	NextMsgWithContext(ctx context.Context) (*nats.Msg, error)
	Requeue(*nats.Msg)
}

// drainMailbox loops on a local mailbox.
func drainMailbox(ctx context.Context, box mailbox, handle func(*nats.Msg)) {
	for {
		msg, err := box.NextMsgWithContext(ctx)
		if err != nil {
			continue
		}
		handle(msg)
	}
}
