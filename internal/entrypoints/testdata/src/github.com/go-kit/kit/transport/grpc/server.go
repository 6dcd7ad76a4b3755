// Package grpc stands in for go-kit's gRPC transport.
package grpc

import (
	"context"

	"github.com/go-kit/kit/endpoint"
)

type DecodeRequestFunc func(context.Context, interface{}) (interface{}, error)

type EncodeResponseFunc func(context.Context, interface{}) (interface{}, error)

type Server struct{ e endpoint.Endpoint }

func NewServer(e endpoint.Endpoint, dec DecodeRequestFunc, enc EncodeResponseFunc) *Server {
	return &Server{e: e}
}

func (s Server) ServeGRPC(ctx context.Context, req interface{}) (context.Context, interface{}, error) {
	resp, err := s.e(ctx, req)
	return ctx, resp, err
}
