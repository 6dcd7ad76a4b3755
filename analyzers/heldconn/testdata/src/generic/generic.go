// Package generic checks generic transaction helpers.
package generic

import (
	"context"
	"database/sql"
	"net/http"
)

// WithTx is a generic holder: fn runs inside the transaction.
func WithTx[T any](ctx context.Context, db *sql.DB, fn func(*sql.Tx) (T, error)) (T, error) { // want WithTx:"holdsDuringCallback\\(\\[2\\]\\)" WithTx:`queriesParam\(\[1\]\)`
	var zero T
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return zero, err
	}
	defer tx.Rollback()
	v, err := fn(tx)
	if err != nil {
		return zero, err
	}
	return v, tx.Commit()
}

func quote(ctx context.Context, db *sql.DB) (int, error) { // want quote:`queriesParam\(\[1\]\)`
	return WithTx(ctx, db, func(tx *sql.Tx) (int, error) {
		resp, err := http.Get("https://tax.example") // want `the function passed to generic.WithTx calls http.Get`
		if err != nil {
			return 0, err
		}
		return resp.StatusCode, nil
	})
}

func count(ctx context.Context, db *sql.DB) (int, error) { // want count:`queriesParam\(\[1\]\)`
	return WithTx(ctx, db, func(tx *sql.Tx) (int, error) {
		var n int
		err := tx.QueryRowContext(ctx, "SELECT count(*) FROM t").Scan(&n)
		return n, err
	})
}

// Fetch is generic and holds a transaction across a call in its own body.
func Fetch[T any](ctx context.Context, db *sql.DB, decode func(*http.Response) T) (T, error) { // want Fetch:"holdsDuringCallback\\(\\[2\\]\\)" Fetch:`queriesParam\(\[1\]\)`
	var zero T
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return zero, err
	}
	defer tx.Rollback()
	resp, err := http.Get("https://rates.example") // want `transaction from \(\*sql.DB\).BeginTx is still held during http.Get`
	if err != nil {
		return zero, err
	}
	return decode(resp), tx.Commit()
}
