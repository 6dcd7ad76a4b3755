// Package sqlite is an embedded database's backend that gives its pool a // want package:"limitsPools" package:"noContextWaitsReported\\(1\\)"
// maximum of one connection (serialising SQLite's writers, as headscale
// does): its callers queue for that one connection, so a wait without a
// deadline is reported here as anywhere.
package sqlite

import (
	"context"
	"database/sql"
	"net/http"
)

type Store struct{ db *sql.DB }

func Open(path string) (*Store, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return &Store{db: db}, nil
}

func (s *Store) Count(ctx context.Context) int { // want Count:"ignoresContext" Count:"waitsOnNetwork" Count:`waitsNoContext\(\(\*sql.DB\).QueryRow in \(Store\).Count\)`
	var n int
	_ = s.db.QueryRow("SELECT count(*) FROM nodes").Scan(&n) // want `wait with no deadline: \(\*sql.DB\).QueryRow waits for a pool slot with no context, though \(Store\).Count was handed one \(ctx\), and a request reaches it`
	return n
}

// Routes: a request reaches Count.
func (s *Store) Routes(mux *http.ServeMux) { // want Routes:"waitsOnNetwork"
	mux.HandleFunc("/nodes", func(w http.ResponseWriter, r *http.Request) { s.Count(r.Context()) })
}
