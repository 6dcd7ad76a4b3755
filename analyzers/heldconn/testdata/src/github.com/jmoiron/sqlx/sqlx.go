// Package sqlx is a stub of github.com/jmoiron/sqlx: its Tx embeds *sql.Tx,
// its Stmt embeds *sql.Stmt.
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct{ *sql.DB }

type Tx struct{ *sql.Tx }

type Stmt struct{ *sql.Stmt }

// Rows embeds *sql.Rows: its Next, Scan and Close are *sql.Rows'.
type Rows struct{ *sql.Rows }

func (db *DB) QueryxContext(ctx context.Context, query string, args ...any) (*Rows, error) {
	return nil, nil
}
func (r *Rows) StructScan(dest any) error { return nil }

func (db *DB) Beginx() (*Tx, error)                                           { return nil, nil }
func (db *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*Tx, error) { return nil, nil }
func (db *DB) Unsafe() *DB                                                    { return db }
func (db *DB) Preparex(query string) (*Stmt, error)                           { return nil, nil }
func (db *DB) Select(dest any, query string, args ...any) error               { return nil }

func (tx *Tx) Select(dest any, query string, args ...any) error { return nil }
func (tx *Tx) Preparex(query string) (*Stmt, error)             { return nil, nil }
func (tx *Tx) Stmtx(stmt any) *Stmt                             { return nil }

func (s *Stmt) Select(dest any, args ...any) error { return nil }
func (s *Stmt) Get(dest any, args ...any) error    { return nil }
