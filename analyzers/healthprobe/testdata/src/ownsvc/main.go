// Package ownsvc registers ownchecks' handlers for its probes beside a
// request handler that uses the services' pool.
package ownsvc

import (
	"context"
	"database/sql"
	"net/http"

	"ownchecks"
)

func Routes(ctx context.Context, db *sql.DB, dsn string) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/livez", ownchecks.PerProbe(dsn))
	mux.Handle("/readyz", ownchecks.PerHandler(ctx, dsn))
	mux.Handle("/healthz", ownchecks.ViaHelper(dsn))
	mux.Handle("/health", ownchecks.Borrowed(db)) // want `health probe .*ownchecks.Borrowed.*reaches the database pool`
	mux.Handle("/ping", ownchecks.Kept(dsn))      // want `health probe .*ownchecks.Kept.*reaches`
	mux.HandleFunc("/v1/pay", func(w http.ResponseWriter, r *http.Request) {
		_, _ = db.ExecContext(r.Context(), "INSERT INTO pay VALUES (1)")
		_, _ = ownchecks.Shared().ExecContext(r.Context(), "SELECT 1")
	})
	return mux
}
