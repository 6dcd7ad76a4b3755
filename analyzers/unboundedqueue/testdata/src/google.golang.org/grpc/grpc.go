// Package grpc is the part of google.golang.org/grpc the tests use.
package grpc

import "context"

type CallOption interface{}

type ClientConnInterface interface {
	Invoke(ctx context.Context, method string, args any, reply any, opts ...CallOption) error
}
