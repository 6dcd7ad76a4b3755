// Package historypb is shaped as a protoc-gen-go-grpc client: the client
// interface and its implementation, which invokes the connection, in one
// package; the messages have ProtoReflect.
package historypb

import (
	"context"

	"google.golang.org/grpc"
)

type Message interface{}

type SignalRequest struct{ Namespace string }

func (*SignalRequest) ProtoReflect() Message { return nil }

type SignalResponse struct{}

func (*SignalResponse) ProtoReflect() Message { return nil }

type HistoryClient interface {
	Signal(ctx context.Context, in *SignalRequest, opts ...grpc.CallOption) (*SignalResponse, error) // want Signal:"waitsOnNetwork"
}

type historyClient struct{ cc grpc.ClientConnInterface }

func NewHistoryClient(cc grpc.ClientConnInterface) HistoryClient { return &historyClient{cc} }

func (c *historyClient) Signal(ctx context.Context, in *SignalRequest, opts ...grpc.CallOption) (*SignalResponse, error) { // want Signal:"waitsOnNetwork"
	out := new(SignalResponse)
	err := c.cc.Invoke(ctx, "/history.History/Signal", in, out, opts...)
	return out, err
}
