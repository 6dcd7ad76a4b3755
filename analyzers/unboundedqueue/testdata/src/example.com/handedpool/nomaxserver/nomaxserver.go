// Package nomaxserver hands the store a pool with no maximum. // want package:`pendingWaits\(1\)`
// A caller with no context opens another connection instead of queueing
// (trap; what the pool lacks is its maximum, reported at its open).
package nomaxserver

import (
	"database/sql"
	"net/http"

	"example.com/handedpool/store"
)

func Run(dsn string) error { // want Run:"servesConns"
	db, err := sql.Open("pgx", dsn) // want `pool without a maximum: the \*sql.DB from sql.Open is passed to store.New without SetMaxOpenConns`
	if err != nil {
		return err
	}
	tokens := store.New(db)
	return http.ListenAndServe(":8009", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = tokens.Token(r.URL.Query().Get("id"))
	}))
}
