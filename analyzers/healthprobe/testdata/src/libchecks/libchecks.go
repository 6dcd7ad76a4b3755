// Package libchecks registers checks with health libraries.
package libchecks

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/alexliesenfeld/health"
	"github.com/heptiolabs/healthcheck"

	"store"
)

func heptio(db *sql.DB, st *store.Store) http.Handler {
	h := healthcheck.NewHandler()
	h.AddLivenessCheck("goroutines", func() error { return nil })
	h.AddReadinessCheck("store", func() error {
		return st.Ping(context.Background()) // want `readiness probe the func literal in libchecks.heptio \(the readiness check registered with \(healthcheck.Handler\).AddReadinessCheck\) reaches the database pool Store.db`
	})
	h.AddReadinessCheck("db", healthcheck.DatabasePingCheck(db, time.Second)) // want `readiness probe healthcheck.DatabasePingCheck \(the readiness check registered with \(healthcheck.Handler\).AddReadinessCheck\) reaches the database pool the database pool passed to libchecks.heptio`
	// Async runs the check in the background and serves its last result: clean.
	h.AddReadinessCheck("db-async", healthcheck.Async(healthcheck.DatabasePingCheck(db, time.Second), 10*time.Second))
	return h
}

func alex(st *store.Store) http.Handler {
	checker := health.NewChecker(
		health.WithCheck(health.Check{
			Name: "database",
			Check: func(ctx context.Context) error {
				return st.Ping(ctx) // want `health probe the func literal in libchecks.alex \(the health check registered with health.WithCheck\) reaches the database pool Store.db`
			},
		}),
		// A periodic check runs in the background: clean.
		health.WithPeriodicCheck(15*time.Second, 0, health.Check{
			Name:  "database-periodic",
			Check: func(ctx context.Context) error { return st.Ping(ctx) },
		}),
	)
	return health.NewHandler(checker)
}
