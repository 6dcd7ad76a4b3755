// Package sqlxlike is a dependency vendored into the program (as sqlx): its
// package-level Select runs on any Queryer, the pool or a transaction, and
// both types' Select methods call it.
package sqlxlike

import (
	"context"
	"database/sql"
)

type Queryer interface {
	Queryx(query string, args ...any) (*sql.Rows, error)
}

type DB struct{ *sql.DB }

// Tx embeds the transaction: its queries run on the connection it holds.
type Tx struct{ *sql.Tx }

func (db *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*Tx, error) {
	tx, err := db.DB.BeginTx(ctx, opts)
	return &Tx{tx}, err
}

// Queryx takes a connection from the pool with no context.
func (db *DB) Queryx(query string, args ...any) (*sql.Rows, error) {
	return db.DB.Query(query, args...)
}

func (tx *Tx) Queryx(query string, args ...any) (*sql.Rows, error) {
	return tx.Tx.Query(query, args...)
}

func Select(q Queryer, dest any, query string, args ...any) error {
	rows, err := q.Queryx(query, args...)
	if err != nil {
		return err
	}
	return rows.Close()
}

func (db *DB) Select(dest any, query string, args ...any) error {
	return Select(db, dest, query, args...)
}

func (tx *Tx) Select(dest any, query string, args ...any) error {
	return Select(tx, dest, query, args...)
}
