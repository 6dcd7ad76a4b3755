// Package bulkhead is a stub of bhlint's runtime: just the lane-typed API.
package bulkhead

import (
	"context"
	"database/sql"
	"net/http"
)

type LaneSpec struct{ Name string }

type Lane interface{ Spec() LaneSpec }

type Executor[L Lane] struct{}

func NewExecutor[L Lane]() (*Executor[L], error) { return &Executor[L]{}, nil }

func (e *Executor[L]) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	return fn(ctx)
}

func (e *Executor[L]) Handler(next http.Handler) http.Handler { return next }

func Call[L Lane, T any](ctx context.Context, e *Executor[L], fn func(ctx context.Context) (T, error)) (T, error) {
	return fn(ctx)
}

type DB[L Lane] struct{ db *sql.DB }

func NewDB[L Lane](db *sql.DB) *DB[L] { return &DB[L]{db: db} }

func (d *DB[L]) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	return d.db.QueryRowContext(ctx, q, args...)
}
