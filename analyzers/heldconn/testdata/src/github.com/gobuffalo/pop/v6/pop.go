// Package pop is a stub of github.com/gobuffalo/pop/v6 with the declarations
// the cases use.
package pop

import (
	"context"
	"database/sql"
)

type Connection struct{ db *sql.DB }

func (c *Connection) Transaction(fn func(tx *Connection) error) error { return fn(c) }
func (c *Connection) TransactionContext(ctx context.Context, fn func(tx *Connection) error) error {
	return fn(c)
}
func (c *Connection) Create(v any, excludeColumns ...string) error { return nil }
