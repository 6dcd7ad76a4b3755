// Package server answers requests through storage.Storage, whose // want package:`servedElsewhere\(2\)`
// implementations it does not import, and collects garbage in the
// background.
package server

import (
	"net/http"
	"time"

	"example.com/servedwaits/storage"
)

type Server struct{ storage storage.Storage }

func New(s storage.Storage) *Server { return &Server{storage: s} }

func (s *Server) Routes(mux *http.ServeMux) {
	mux.HandleFunc("/token", s.handleToken)
}

func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	c, err := s.storage.GetClient(r.FormValue("client_id"))
	if err != nil {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	_ = s.storage.UpdateClient(c.ID, func(old Client) (Client, error) { return old, nil })
}

type Client = storage.Client

// GC runs in the background only: no request waits behind its wait.
func (s *Server) GC() {
	for range time.Tick(time.Minute) {
		_, _ = s.storage.GarbageCollect()
	}
}
