// Package pgx4srv declares the health handlers the services register: a
// factory whose closure borrows a connection from the pool it is handed
// (exposure-notifications-server's pkg/server.HandleHealthz), and its
// look-alikes that reach no shared pool.
package pgx4srv

import (
	"context"
	"database/sql"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v4/pgxpool"

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

// HandleOwn pings a pool opened for the probe alone.
func HandleOwn(dsn string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		pool, err := pgxpool.Connect(r.Context(), dsn)
		if err != nil {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		defer pool.Close()
		if err := pool.Ping(r.Context()); err != nil {
			http.Error(w, "down", http.StatusInternalServerError)
		}
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

// HandleOwnSQL opens a database/sql pool for the probe alone.
func HandleOwnSQL(dsn string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		db, err := sql.Open("postgres", dsn)
		if err != nil {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		defer db.Close()
		if err := db.PingContext(r.Context()); err != nil {
			http.Error(w, "down", http.StatusInternalServerError)
		}
	})
}
