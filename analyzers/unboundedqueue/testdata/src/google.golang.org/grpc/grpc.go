// Package grpc is the part of google.golang.org/grpc the tests use.
package grpc

import "context"

type CallOption interface{}

type ClientConnInterface interface {
	Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error
}

// ClientStream is a client's side of a stream.
type ClientStream interface {
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
	CloseSend() error
}
