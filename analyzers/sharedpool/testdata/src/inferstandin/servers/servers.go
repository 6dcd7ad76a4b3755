// Package servers answers requests through storage.Writer; it sees the
// no-op, not the database backend.
package servers

import (
	"net/http"

	"inferstandin/storage"
)

var _ storage.Writer = storage.NoopWriter{}

type Server struct {
	W storage.Writer
	R storage.Reader
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.W.Write(r.URL.Path)
	w.Write([]byte(s.R.Read(r.URL.Path)))
}
