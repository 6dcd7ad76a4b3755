// Package ownchecks holds health handlers for another package to register.
// Some open a pool of their own, per probe or per handler; one borrows the
// pool its caller passes.
package ownchecks

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/jackc/pgx/v4/pgxpool"
)

// PerProbe opens a pool on every probe and closes it: nothing else waits
// for its connections.
func PerProbe(dsn string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		defer db.Close()
		if err := db.PingContext(r.Context()); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}
}

// PerHandler opens one pool for the handler it returns, and hands it to
// nothing else.
func PerHandler(ctx context.Context, dsn string) http.Handler {
	pool, err := pgxpool.Connect(ctx, dsn)
	if err != nil {
		panic(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := pool.Ping(r.Context()); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
}

// ViaHelper opens a pool per probe and pings it through a helper that
// keeps nothing.
func ViaHelper(dsn string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		db, err := sql.Open("pgx", dsn)
		if err != nil {
			return
		}
		defer db.Close()
		_ = ping(r.Context(), db)
	}
}

func ping(ctx context.Context, db *sql.DB) error { return db.PingContext(ctx) } // want ping:`reachesShared\(database pool param 1 via \(\*sql.DB\).PingContext\)`

// Borrowed pings the pool its caller passes: the services' own.
func Borrowed(db *sql.DB) http.HandlerFunc { // want Borrowed:`returnsHandler\(the func literal in ownchecks.Borrowed: reachesShared\(database pool .*\)\)`
	return func(w http.ResponseWriter, r *http.Request) {
		_ = db.PingContext(r.Context())
	}
}

// shared is the package's pool, opened once; Kept hands it out.
var shared *sql.DB

// Kept opens a pool per factory call and keeps it in the package's
// variable, which request code reads too.
func Kept(dsn string) http.HandlerFunc { // want Kept:`returnsHandler\(.*\)`
	db, _ := sql.Open("pgx", dsn)
	shared = db
	return func(w http.ResponseWriter, r *http.Request) {
		_ = db.PingContext(r.Context())
	}
}

// Shared is the pool Kept opened.
func Shared() *sql.DB { return shared } // want Shared:`returnsPool\(database pool ownchecks.shared\)`

// Swapped keeps its pool in two variables a failover swaps: each cell is
// stored more than once, so the pool is no one value's and is taken as
// shared. (A walk that followed the swap went round it until the stack
// overflowed.)
func Swapped(dsn string, failover bool) http.HandlerFunc { // want Swapped:`returnsHandler\(the func literal in ownchecks.Swapped: .*\)`
	db, _ := sql.Open("pgx", dsn)
	primary := db
	replica := primary
	if failover {
		primary, replica = replica, primary
	}
	return func(w http.ResponseWriter, r *http.Request) {
		_ = replica
		_ = primary.PingContext(r.Context())
	}
}
