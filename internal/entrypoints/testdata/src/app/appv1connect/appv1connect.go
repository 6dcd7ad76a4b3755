// Package appv1connect is what protoc-gen-connect-go generates for a
// service: its handler interface and the constructor of its HTTP handler.
package appv1connect

import (
	"context"
	"net/http"

	"connectrpc.com/connect"
)

type PingRequest struct{}

type PingResponse struct{}

type PingServiceHandler interface {
	Ping(context.Context, *connect.Request[PingRequest]) (*connect.Response[PingResponse], error)
}

func NewPingServiceHandler(svc PingServiceHandler, opts ...connect.HandlerOption) (string, http.Handler) {
	return "/app.v1.PingService/", http.NotFoundHandler()
}

// NewRouterHandler has the name, not the shape: its options are not
// Connect's.
func NewRouterHandler(svc PingServiceHandler, opts ...string) (string, http.Handler) {
	return "/", http.NotFoundHandler()
}
