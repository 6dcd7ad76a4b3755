// Package server opens the pool and gives it a maximum. // want package:"limitsPools" package:`noContextWaitsReported\(1\)`
// It hands the pool to the store that its handlers call.
package server

import (
	"database/sql"
	"net/http"

	"example.com/handedpool/store"
)

func Run(dsn string) error { // want Run:"servesConns" Run:"waitsNoContext" Run:"waitsOnNetwork"
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(20)
	tokens := store.New(db)
	tokens.Prune()
	mux := http.NewServeMux()
	mux.HandleFunc("/sync", func(w http.ResponseWriter, r *http.Request) {
		_ = tokens.Token(r.URL.Query().Get("id"))
		_ = tokens.TokenCtx(r.Context(), r.URL.Query().Get("id"))
	})
	return http.ListenAndServe(":8008", mux)
}
