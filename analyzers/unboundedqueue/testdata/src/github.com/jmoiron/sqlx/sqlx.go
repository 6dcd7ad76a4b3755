// Package sqlx is a stub of github.com/jmoiron/sqlx: the pool methods the
// tests call, with the real signatures.
package sqlx

import (
	"context"
	"database/sql"
)

type DB struct{ *sql.DB }

type Tx struct{ *sql.Tx }

type Conn struct{ *sql.Conn }

func (db *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*Tx, error) { return nil, nil }

func (db *DB) Connx(ctx context.Context) (*Conn, error) { return nil, nil }

func (db *DB) GetContext(ctx context.Context, dest interface{}, query string, args ...interface{}) error {
	return nil
}

func Open(driverName, dataSourceName string) (*DB, error) { return &DB{}, nil }

func Connect(driverName, dataSourceName string) (*DB, error) { return &DB{}, nil }
