// Package moovchecks registers checks with moov-io/base's admin server
// (moov's paygate: a liveness check that pings the customers service every
// request path also calls).
package moovchecks

import (
	"context"
	"database/sql"
	"net/http"
	"sync/atomic"

	"github.com/moov-io/base/admin"
)

type customers struct{ client *http.Client }

func (c *customers) Ping() error { // want Ping:`reachesShared\(HTTP client customers.client via \(\*http.Client\).Do\)`
	req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://customers/ping", nil)
	resp, err := c.client.Do(req) // want `liveness probe \(\*moovchecks.customers\).Ping \(the liveness check registered with \(\*admin.Server\).AddLivenessCheck\) reaches the HTTP client customers.client`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type repo struct{ db *sql.DB }

func (r *repo) lastCheck() error { return nil }

func Setup(srv *admin.Server, c *customers, db *sql.DB, healthy *atomic.Bool) {
	srv.AddLivenessCheck("customers", c.Ping)
	srv.AddReadinessCheck("db", func() error {
		return db.PingContext(context.Background()) // want `readiness probe the func literal in moovchecks.Setup \(the readiness check registered with \(\*admin.Server\).AddReadinessCheck\) reaches the database pool passed to moovchecks.Setup`
	})
	// Traps: a cached status, and a check that answers from memory.
	srv.AddReadinessCheck("cached", func() error {
		if !healthy.Load() {
			return context.DeadlineExceeded
		}
		return nil
	})
	srv.AddLivenessCheck("repo", (&repo{db: db}).lastCheck)
}
