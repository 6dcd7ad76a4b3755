// Package pgx is a stub of github.com/jackc/pgx/v5.
package pgx

type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Close()
	Err() error
}

type Tx interface {
	Commit(ctx interface{}) error
}

type CommandTag struct{}
