// Package server answers requests and collects garbage in the background, // want package:`lanes\(func literal in \(\*server\.Server\)\.Run@background, \(\*server\.Server\)\.handleGet@interactive\)`
// both through store.Store; it sees no backend.
package server

import (
	"net/http"
	"time"

	"example.com/moddex/store"
)

type Server struct{ st store.Store }

func New(st store.Store) *Server { return &Server{st: st} }

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) {
	w.Write([]byte(s.st.Get(r.URL.Query().Get("id"))))
}

func (s *Server) Run() { // want Run:`reaches\(via \(store\.Store\)\.GC\)`
	go func() {
		for range time.Tick(time.Minute) {
			s.st.GC()
		}
	}()
	http.HandleFunc("/get", s.handleGet)
	http.ListenAndServe(":8080", nil)
}
