// Package fieldprobe's probes call func-typed fields this package sets.
package fieldprobe

import (
	"context"
	"database/sql"
	"net"
	"net/http"
	"sync/atomic"
)

var pool *sql.DB

type server struct {
	ping   func(context.Context) error
	exec   func(context.Context) error
	status func(context.Context) error
	own    func(context.Context) error
	ok     atomic.Bool
}

func newServer(dsn string) *server {
	s := &server{
		ping: pool.PingContext,
		exec: func(ctx context.Context) error {
			_, err := pool.ExecContext(ctx, "SELECT 1")
			return err
		},
		own: func(ctx context.Context) error {
			c, err := net.Dial("tcp", dsn)
			if err != nil {
				return err
			}
			return c.Close()
		},
	}
	s.status = s.cached
	return s
}

func (s *server) cached(context.Context) error {
	if !s.ok.Load() {
		return context.DeadlineExceeded
	}
	return nil
}

func (s *server) healthz(w http.ResponseWriter, r *http.Request) { // want healthz:`reachesShared\(database pool fieldprobe.pool via server.ping → \(\*sql.DB\).PingContext\)`
	if err := s.ping(r.Context()); err != nil { // want `health probe \(\*fieldprobe.server\).healthz \(route "/healthz"\) reaches the database pool fieldprobe.pool that request traffic also uses \(\(\*fieldprobe.server\).healthz → server.ping → \(\*sql.DB\).PingContext\)`
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func (s *server) livez(w http.ResponseWriter, r *http.Request) { // want livez:`reachesShared\(database pool fieldprobe.pool via server.exec → the func literal in fieldprobe.newServer → \(\*sql.DB\).ExecContext\)`
	s.exec(r.Context()) // want `liveness probe \(\*fieldprobe.server\).livez \(route "/livez"\) reaches the database pool fieldprobe.pool .*server.exec → the func literal in fieldprobe.newServer → \(\*sql.DB\).ExecContext`
}

// readyz reads a status a background check keeps: silent.
func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	if err := s.status(r.Context()); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

// health dials a connection of its own: silent.
func (s *server) health(w http.ResponseWriter, r *http.Request) {
	if err := s.own(r.Context()); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func register(dsn string) {
	s := newServer(dsn)
	http.HandleFunc("/healthz", s.healthz)
	http.HandleFunc("/livez", s.livez)
	http.HandleFunc("/readyz", s.readyz)
	http.HandleFunc("/health", s.health)
}
