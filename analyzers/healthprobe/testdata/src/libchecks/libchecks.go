// Package libchecks registers checks with health libraries. // want package:`impls: \(\*store.Store\).Ping\)`
package libchecks

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/alexliesenfeld/health"
	hfhealth "github.com/hellofresh/health-go/v5"
	"github.com/heptiolabs/healthcheck"
	"github.com/ory/x/healthx"

	"store"
)

func heptio(db *sql.DB, st *store.Store) http.Handler {
	h := healthcheck.NewHandler()
	h.AddLivenessCheck("goroutines", func() error { return nil })
	h.AddReadinessCheck("store", func() error {
		return st.Ping(context.Background()) // want `readiness probe the func literal in libchecks.heptio \(the readiness check registered with \(healthcheck.Handler\).AddReadinessCheck\) reaches the database pool Store.db`
	})
	h.AddReadinessCheck("db", healthcheck.DatabasePingCheck(db, time.Second))                       // want `readiness probe healthcheck.DatabasePingCheck \(the readiness check registered with \(healthcheck.Handler\).AddReadinessCheck\) reaches the database pool passed to libchecks.heptio`
	h.AddReadinessCheck("billing", healthcheck.HTTPGetCheck("http://billing/healthz", time.Second)) // want `readiness probe healthcheck.HTTPGetCheck \(the readiness check registered with \(healthcheck.Handler\).AddReadinessCheck\) reaches the HTTP client http.DefaultTransport`
	h.AddReadinessCheck("db-own-check", pingCheck(db))
	// A dial opens a connection of its own: clean.
	h.AddLivenessCheck("upstream-dns", healthcheck.TCPDialCheck("billing:443", time.Second))
	// Async runs the check in the background and serves its last result: clean.
	h.AddReadinessCheck("db-async", healthcheck.Async(healthcheck.DatabasePingCheck(db, time.Second), 10*time.Second))
	return h
}

// pingCheck is the service's own check factory.
func pingCheck(db *sql.DB) healthcheck.Check { // want pingCheck:"returnsHandler"
	return func() error {
		return db.PingContext(context.Background()) // want `readiness probe the func literal in libchecks.pingCheck \(the readiness check registered with \(healthcheck.Handler\).AddReadinessCheck\) reaches the database pool passed to libchecks.heptio`
	}
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

func ory(st *store.Store, db *sql.DB) *healthx.Handler {
	return healthx.NewHandler("v1", healthx.ReadyCheckers{
		"database": func(r *http.Request) error {
			return st.Ping(r.Context()) // want `readiness probe the func literal in libchecks.ory \(the readiness check "database"\) reaches the database pool Store.db`
		},
		"version": func(r *http.Request) error { return nil },
	})
}

// registry keeps what its migrations check learnt.
type registry struct {
	st       *store.Store
	migrated *bool
	pending  bool
}

// oryMigrations: the migrations check reaches the pool only until its first
// success, which it keeps (a start-up gate: a slow database cannot fail it
// once it has passed); the one that stores nothing asks every time.
func oryMigrations(m *registry) *healthx.Handler {
	return healthx.NewHandler("v1", healthx.ReadyCheckers{
		"migrations": func(r *http.Request) error {
			if m.migrated != nil && *m.migrated {
				return nil
			}
			if err := m.st.Ping(r.Context()); err != nil {
				return err
			}
			done := true
			m.migrated = &done
			return nil
		},
		"migrations-every-time": func(r *http.Request) error {
			if m.pending {
				return nil
			}
			return m.st.Ping(r.Context()) // want `readiness probe the func literal in libchecks.oryMigrations \(the readiness check "migrations-every-time"\) reaches the database pool`
		},
	})
}

func hellofresh(db *sql.DB) (*hfhealth.Health, error) {
	h, err := hfhealth.New(hfhealth.WithChecks(hfhealth.Config{
		Name: "postgres",
		Check: func(ctx context.Context) error {
			return db.PingContext(ctx) // want `health probe the func literal in libchecks.hellofresh \(the health check registered with health.WithChecks\) reaches the database pool passed to libchecks.hellofresh`
		},
	}))
	if err != nil {
		return nil, err
	}
	err = h.Register(hfhealth.Config{
		Name:  "postgres-again",
		Check: func(ctx context.Context) error { return db.PingContext(ctx) }, // want `health probe the func literal in libchecks.hellofresh \(the health check registered with \(\*health.Health\).Register\)`
	})
	err = h.Register(hfhealth.Config{
		Name: "pool-size",
		// In the process: clean.
		Check: func(ctx context.Context) error { _ = db.Stats(); return nil },
	})
	return h, err
}
