// Package service is the server a gRPC health check asks: it asks its
// datastore, an interface the module implements elsewhere (gormstore).
// It serves HTTP too: a package that reaches no pool library, nor a router
// or the gRPC health service, is not analysed.
package service

import (
	"context"
	"net/http"
)

type Datastore interface{ Ping() error }

type Server struct{ ds Datastore }

func New(ds Datastore) *Server { return &Server{ds: ds} }

func (s *Server) IsReady(ctx context.Context) (bool, error) { // want IsReady:`callsThrough\(\(service.Datastore\).Ping\)`
	return s.ds.Ping() == nil, nil
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }
