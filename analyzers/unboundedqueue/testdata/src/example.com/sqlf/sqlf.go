// Package sqlf is a query builder whose statements run on whatever the
// caller hands them, a pool or a transaction (leporo/sqlf's shape).
package sqlf

import (
	"context"
	"database/sql"
)

// Executor is what a statement runs on: *sql.DB and *sql.Tx both fill it.
type Executor interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

type Stmt struct{ text string }

func From(table string) *Stmt { return &Stmt{text: "SELECT * FROM " + table} }

// Query waits for a slot of db, when db is a pool, for as long as ctx
// allows; a nil ctx is replaced by one with no deadline either.
func (q *Stmt) Query(ctx context.Context, db Executor, handle func(*sql.Rows)) error { // want Query:"forwardsSlotWait\\(ctx=0, pool=1"
	if ctx == nil {
		ctx = context.Background()
	}
	rows, err := db.QueryContext(ctx, q.text)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		handle(rows)
	}
	return rows.Err()
}

// QueryAndClose forwards to Query (leporo/sqlf's shape).
func (q *Stmt) QueryAndClose(ctx context.Context, db Executor, handle func(*sql.Rows)) error { // want QueryAndClose:"forwardsSlotWait\\(ctx=0, pool=1"
	return q.Query(ctx, db, handle)
}

// ExecWithin gives the wait a deadline of its own.
func (q *Stmt) ExecWithin(ctx context.Context, db Executor) error {
	ctx, cancel := context.WithTimeout(ctx, 1e9)
	defer cancel()
	_, err := db.ExecContext(ctx, q.text)
	return err
}
