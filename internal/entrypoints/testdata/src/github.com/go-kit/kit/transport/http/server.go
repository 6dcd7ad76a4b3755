// Package http stands in for go-kit's HTTP transport.
package http

import (
	"context"
	"net/http"

	"github.com/go-kit/kit/endpoint"
)

type DecodeRequestFunc func(context.Context, *http.Request) (interface{}, error)

type EncodeResponseFunc func(context.Context, http.ResponseWriter, interface{}) error

type ServerOption func(*Server)

type Server struct {
	e   endpoint.Endpoint
	dec DecodeRequestFunc
	enc EncodeResponseFunc
}

func NewServer(e endpoint.Endpoint, dec DecodeRequestFunc, enc EncodeResponseFunc, options ...ServerOption) *Server {
	return &Server{e: e, dec: dec, enc: enc}
}

func (s Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	req, _ := s.dec(r.Context(), r)
	resp, _ := s.e(r.Context(), req)
	_ = s.enc(r.Context(), w, resp)
}
