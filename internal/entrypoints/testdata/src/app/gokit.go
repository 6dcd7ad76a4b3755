package app

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
	"github.com/go-kit/kit/endpoint"
	kitgrpc "github.com/go-kit/kit/transport/grpc"
	kithttp "github.com/go-kit/kit/transport/http"
)

// go-kit: the transport's server calls the endpoint for every request, so
// the endpoint is the handler; the server's own ServeHTTP is the
// framework's (no entry at the router's registration).

type ClientService interface {
	Create(ctx context.Context, name string) error
}

func createClientEndpoint(svc ClientService) endpoint.Endpoint {
	return func(ctx context.Context, request interface{}) (interface{}, error) {
		return nil, svc.Create(ctx, request.(string))
	}
}

func loggingMiddleware() endpoint.Middleware {
	return func(next endpoint.Endpoint) endpoint.Endpoint { return next }
}

func decodeCreate(_ context.Context, r *http.Request) (interface{}, error) { return r.URL.Path, nil }

func encodeResponse(_ context.Context, w http.ResponseWriter, _ interface{}) error { return nil }

func kitRoutes(r chi.Router, svc ClientService) {
	r.Handle("/clients", kithttp.NewServer(createClientEndpoint(svc), decodeCreate, encodeResponse))          // want `interactive: go-kit endpoint served by http.NewServer: func literal in app.createClientEndpoint`
	logged := kithttp.NewServer(loggingMiddleware()(createClientEndpoint(svc)), decodeCreate, encodeResponse) // want `interactive: go-kit endpoint served by http.NewServer: func literal in app.createClientEndpoint`
	r.Get("/logged", logged.ServeHTTP)
	_ = kitgrpc.NewServer(createClientEndpoint(svc), nil, nil) // want `interactive: go-kit endpoint served by grpc.NewServer: func literal in app.createClientEndpoint`
}
