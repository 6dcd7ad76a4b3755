// Package sqs is the part of aws-sdk-go v1's SQS client the tests use: its
// operations run a chain of handlers, which send the request.
package sqs

import "context"

type ReceiveMessageInput struct{ QueueUrl *string }

type Message struct{ Body *string }

type ReceiveMessageOutput struct{ Messages []*Message }

type Request struct{}

func (r *Request) Send() error { return nil }

type SQS struct{ handlers []func(*Request) }

func (c *SQS) ReceiveMessageWithContext(ctx context.Context, in *ReceiveMessageInput) (*ReceiveMessageOutput, error) {
	req, out := c.ReceiveMessageRequest(in)
	return out, req.Send()
}

func (c *SQS) ReceiveMessage(in *ReceiveMessageInput) (*ReceiveMessageOutput, error) {
	return c.ReceiveMessageWithContext(context.Background(), in)
}

// ReceiveMessageRequest builds the request and does not send it.
func (c *SQS) ReceiveMessageRequest(in *ReceiveMessageInput) (*Request, *ReceiveMessageOutput) {
	return &Request{}, &ReceiveMessageOutput{}
}
