// Package lanedb is a stub of the runtime's lane-typed database/sql pool.
// NewDB stands for any constructor that wraps an existing pool into a lane
// (the real package opens its own pool: Open / OpenDB).
package lanedb

import (
	"context"
	"database/sql"

	"github.com/bhlint/bhlint/bulkhead"
)

type DB[L bulkhead.Lane] struct{ db *sql.DB }

func NewDB[L bulkhead.Lane](db *sql.DB) *DB[L] { return &DB[L]{db: db} }

func (d *DB[L]) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return d.db.QueryRowContext(ctx, q, args...)
}
