// Package pgx4svc registers pgx4srv's health handler beside request
// handlers that use the same pool.
package pgx4svc

import (
	"context"
	"net/http"

	"github.com/jackc/pgx/v4/pgxpool"

	"pgx4db"
	"pgx4srv"
)

type Server struct{ db *pgx4db.DB }

func (s *Server) handlePublish() http.Handler { // want handlePublish:`returnsHandler\(the func literal in \(\*pgx4svc.Server\).handlePublish: reachesShared\(database pool DB.Pool via \(\*pgxpool.Pool\).Exec\)\)`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = s.db.Pool.Exec(r.Context(), "INSERT INTO exposure VALUES ($1)", 1)
	})
}

func (s *Server) Routes(ctx context.Context, dsn string) *http.ServeMux {
	r := http.NewServeMux()
	r.Handle("/health", pgx4srv.HandleHealthz(s.db)) // want `health probe the func literal in pgx4srv.HandleHealthz \(route "/health"\) reaches the database pool DB.Pool .*\(\*pgxpool.Pool\).Acquire`
	r.Handle("/readyz", pgx4srv.HandleCached(ctx, s.db))
	r.Handle("/livez", pgx4srv.HandleStats(s.db))
	r.HandleFunc("/hc", func(w http.ResponseWriter, r *http.Request) {
		pool, err := pgxpool.Connect(r.Context(), dsn)
		if err != nil {
			return
		}
		defer pool.Close()
		_ = pool.Ping(r.Context())
	})
	r.Handle("/v1/publish", s.handlePublish())
	return r
}
