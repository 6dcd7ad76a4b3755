package pgstore

import (
	"context"
	"database/sql"

	"example.com/probemod/store"
)

var _ store.Store = (*DB)(nil)

type DB struct{ db *sql.DB }

func Open(dsn string) (*DB, error) {
	db, err := sql.Open("pgx", dsn)
	return &DB{db: db}, err
}

func (d *DB) Ping(ctx context.Context) error { return d.db.PingContext(ctx) }
