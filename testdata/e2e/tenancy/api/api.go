// Package api serves orders, and a health probe that pings the pool the
// orders use.
package api

import (
	"database/sql"
	"net/http"
	"sync/atomic"
)

type server struct {
	db      *sql.DB
	healthy atomic.Bool // written by a background check, read by /livez
}

// Routes registers the service's handlers.
func Routes(db *sql.DB) http.Handler {
	s := &server{db: db}
	mux := http.NewServeMux()
	mux.HandleFunc("/orders", s.orders)
	mux.HandleFunc("/healthz", s.healthz)
	mux.HandleFunc("/livez", s.livez)
	return mux
}

func (s *server) orders(w http.ResponseWriter, r *http.Request) {
	var n int
	if err := s.db.QueryRowContext(r.Context(), "SELECT count(*) FROM orders").Scan(&n); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// healthz pings the orders pool: when the database slows, every instance
// fails it at once.
func (s *server) healthz(w http.ResponseWriter, r *http.Request) {
	if err := s.db.PingContext(r.Context()); err != nil {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ok"))
}

// livez reads a status a background loop keeps: shallow.
func (s *server) livez(w http.ResponseWriter, r *http.Request) {
	if !s.healthy.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}
