// Package pgx is a stub of github.com/jackc/pgx/v5 for analysistest; the
// end-to-end test uses the real module.
package pgx

import "context"

type CommandTag struct{}

type Rows interface {
	Next() bool
	Close()
	Scan(dest ...any) error
	Err() error
}

type Tx interface {
	Begin(ctx context.Context) (Tx, error)
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
	Exec(ctx context.Context, sql string, args ...any) (CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
}

type RowToFunc[T any] func(row Rows) (T, error)

func BeginFunc(ctx context.Context, db interface {
	Begin(ctx context.Context) (Tx, error)
}, fn func(Tx) error) error {
	return nil
}

func CollectRows[T any](rows Rows, fn RowToFunc[T]) ([]T, error) { return nil, nil }

func RowTo[T any](row Rows) (T, error) { var t T; return t, nil }
