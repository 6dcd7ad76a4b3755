// Package pgx4srv declares the health handlers the services register: a
// factory whose closure borrows a connection from the pool it is handed
// (exposure-notifications-server's pkg/server.HandleHealthz), and its
// look-alikes that reach no shared pool (a probe with a pool of its own is
// pgx4svc's inline /hc: one a factory here builds is taken for shared, a
// known false positive).
package pgx4srv

import (
	"context"
	"net/http"
	"sync/atomic"
	"time"

	"pgx4db"
)

func HandleHealthz(db *pgx4db.DB) http.Handler { // want HandleHealthz:`returnsHandler\(the func literal in pgx4srv.HandleHealthz: reachesShared\(database pool DB.Pool via \(\*pgxpool.Pool\).Acquire\)\)`
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		conn, err := db.Pool.Acquire(ctx)
		if err != nil {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		defer conn.Release()
		if err := conn.Conn().Ping(ctx); err != nil {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
}

// HandleCached answers the status a background goroutine keeps.
func HandleCached(ctx context.Context, db *pgx4db.DB) http.Handler {
	var ok atomic.Bool
	go func() {
		for range time.Tick(time.Second) {
			ok.Store(db.Pool.Ping(ctx) == nil)
		}
	}()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !ok.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
}

// HandleStats reads the pool's statistics, which need no connection.
func HandleStats(db *pgx4db.DB) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = db.Pool.Stat()
		w.WriteHeader(http.StatusOK)
	})
}
