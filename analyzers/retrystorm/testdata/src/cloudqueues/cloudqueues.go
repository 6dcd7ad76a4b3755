// Package cloudqueues has consumer loops on cloud SDKs' queue clients,
// after argo-events' event sources: a failed receive retried forever after
// a constant pause, or at once.
package cloudqueues

import (
	"context"
	"log"
	"math/rand/v2"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/messaging/azservicebus"
	"github.com/aws/aws-sdk-go/service/sqs"
)

func handle(m *sqs.Message) {}

// listenSQS pauses a constant 2 s after a failed receive, on every pod at
// once when SQS comes back.
func listenSQS(ctx context.Context, c *sqs.SQS, url string) error {
	for { // want `ERR_UNBOUNDED_RETRY_DETECTED: this loop retries \(\*sqs.SQS\).ReceiveMessageWithContext when it fails waiting a constant 2s between attempts with no backoff or jitter`
		select {
		case <-ctx.Done():
			return nil
		default:
		}
		out, err := c.ReceiveMessageWithContext(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url})
		if err != nil {
			log.Print(err)
			time.Sleep(2 * time.Second)
			continue
		}
		for _, m := range out.Messages {
			handle(m)
		}
	}
}

// listenServiceBus goes round again at once on a failed receive.
func listenServiceBus(ctx context.Context, r *azservicebus.Receiver) error {
	for { // want `ERR_UNBOUNDED_RETRY_DETECTED: this loop calls \(\*azservicebus.Receiver\).ReceiveMessages again at once when it fails, with no pause`
		msgs, err := r.ReceiveMessages(ctx, 10, nil)
		if err != nil {
			log.Print(err)
			continue
		}
		_ = msgs
	}
}

// ---- traps: must stay silent ----

// listenSQSBackoff backs off with jitter, up to a ceiling.
func listenSQSBackoff(ctx context.Context, c *sqs.SQS, url string) error {
	wait := 100 * time.Millisecond
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		out, err := c.ReceiveMessageWithContext(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url})
		if err != nil {
			time.Sleep(wait + time.Duration(rand.Int64N(int64(wait))))
			wait = min(2*wait, 30*time.Second)
			continue
		}
		wait = 100 * time.Millisecond
		for _, m := range out.Messages {
			handle(m)
		}
	}
}

// validateUntilValid checks the receiver's settings in process: a method
// of the SDK with no context is no request.
func validateUntilValid(r *azservicebus.Receiver) {
	for {
		if r.Validate() == nil {
			return
		}
	}
}
