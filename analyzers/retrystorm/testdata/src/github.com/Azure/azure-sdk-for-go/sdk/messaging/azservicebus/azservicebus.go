// Package azservicebus is the part of Azure's Service Bus client the tests
// use: its methods send through a pipeline of policies.
package azservicebus

import "context"

type ReceivedMessage struct{ Body []byte }

type Receiver struct{ pipeline []interface{ Do() error } }

func (r *Receiver) ReceiveMessages(ctx context.Context, max int, opts *struct{}) ([]*ReceivedMessage, error) {
	return nil, nil
}

// Close releases the receiver's links: no context, no request.
func (r *Receiver) Close() {}

// Validate checks the receiver's options in process.
func (r *Receiver) Validate() error { return nil }
