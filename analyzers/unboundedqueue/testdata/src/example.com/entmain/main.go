// Package main is shaped as gitploy's server: an ent client opened through // want package:`limitsPools` package:`noContextWaitsReported\(1\)`
// the generated client's Open or around a pool it opens itself, and
// served through a graceful-restart wrapper of another package (a server
// all the same: it serves connections).
package main

import (
	"database/sql"
	"fmt"
	"net/http"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"example.com/entapp/ent"
	"example.com/graceful"
)

func OpenDB(driver, dsn string) (*ent.Client, error) { // want OpenDB:`opensUnboundedDB\(0, ent.Open\)`
	if driver == dialect.SQLite || driver == dialect.MySQL {
		return ent.Open(driver, dsn) // want `pool without a maximum: the pool of \*ent.Client this ent.Open opens is handed back by main.OpenDB .* the generated ent.Open gives no caller the pool to bound`
	}
	if driver == dialect.Postgres {
		db, err := sql.Open("pgx", dsn) // want `pool without a maximum`
		if err != nil {
			return nil, err
		}
		drv := entsql.OpenDB(dialect.Postgres, db)
		return ent.NewClient(ent.Driver(drv)), nil
	}
	return nil, fmt.Errorf("unknown driver %q", driver)
}

// Trap: the pool gets a maximum before ent wraps it.
func OpenBounded(dsn string) (*ent.Client, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(20)
	return ent.NewClient(ent.Driver(entsql.OpenDB(dialect.Postgres, db))), nil
}

type store struct{ client *ent.Client }

func main() { // want main:`servesConns`
	client, err := OpenDB("postgres", "dsn")
	if err != nil {
		panic(err)
	}
	s := &store{client}
	bounded, err := OpenBounded("dsn")
	if err != nil {
		panic(err)
	}
	other := &store{bounded}
	_ = graceful.ListenAndServe(":8080", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = s.client.Ping(r.Context())
		_ = other.client.Ping(r.Context())
	}))
}
