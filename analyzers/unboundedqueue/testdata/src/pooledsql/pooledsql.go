// Package pooledsql opens its *sql.DB over a pgxpool (pgx's // want package:"limitsPools" package:`noContextWaitsReported\(1\)`
// stdlib.OpenDBFromPool), whose maximum every connection comes from: a
// query with no context on a request's path waits for a slot of that
// pool with no deadline, though no SetMaxOpenConns is called.
package pooledsql

import (
	"database/sql"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

var db *sql.DB

func Open(p *pgxpool.Pool) {
	db = stdlib.OpenDBFromPool(p)
}

func count() error { // want count:`waitsNoContext\(\(\*sql.DB\).Query in count\)` count:"waitsOnNetwork"
	_, err := db.Query("SELECT count(*) FROM items") // want `wait with no deadline: \(\*sql.DB\).Query waits for a pool slot with no context in count`
	return err
}

func items(w http.ResponseWriter, r *http.Request) { // want items:"waitsOnNetwork" items:`waitsNoContext\(\(\*sql.DB\).Query in count\)`
	_ = count()
}
