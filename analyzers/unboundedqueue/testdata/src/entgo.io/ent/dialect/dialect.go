// Package dialect is a stub of ent's dialect package: the driver interface
// the generated client holds.
package dialect

import "context"

const (
	MySQL    = "mysql"
	SQLite   = "sqlite3"
	Postgres = "postgres"
)

type Driver interface {
	Exec(ctx context.Context, query string, args, v any) error
	Close() error
}
