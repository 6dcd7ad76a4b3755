// Package ctxpool keeps its pool in the request's context, as soft-serve
// does: a middleware stores the one *DB every request uses, handlers take
// it out with FromContext. The readiness probe that pings it pings the
// pool request traffic uses.
package ctxpool

import (
	"context"
	"net/http"

	"github.com/jmoiron/sqlx"
)

type DB struct {
	*sqlx.DB
}

type ctxKey struct{}

func FromContext(ctx context.Context) *DB {
	if db, ok := ctx.Value(ctxKey{}).(*DB); ok {
		return db
	}
	return nil
}

func getReadiness(w http.ResponseWriter, r *http.Request) { // want getReadiness:`reachesShared\(database pool the database pool returned by ctxpool.FromContext via \(\*sql.DB\).PingContext\)`
	db := FromContext(r.Context())
	if err := db.PingContext(r.Context()); err != nil { // want `readiness probe ctxpool.getReadiness \(route "/readyz"\) reaches the database pool returned by ctxpool.FromContext that request traffic also uses`
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// openProbeDB opens a connection of the probe's own: handed only a
// context too, but opening can fail and says so.
func openProbeDB(ctx context.Context) (*DB, error) {
	return &DB{DB: &sqlx.DB{}}, nil
}

// Trap: the liveness probe pings a pool it opened for itself.
func getLiveness(w http.ResponseWriter, r *http.Request) {
	db, err := openProbeDB(r.Context())
	if err != nil {
		return
	}
	_ = db.PingContext(r.Context())
}

func HealthController(_ context.Context, mux *http.ServeMux) {
	mux.HandleFunc("/readyz", getReadiness)
	mux.HandleFunc("/livez", getLiveness)
}
