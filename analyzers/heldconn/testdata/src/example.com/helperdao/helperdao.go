// Package helperdao looks rows up through the handle its caller hands it:
// a pool, or the caller's transaction.
package helperdao

import (
	"context"
	"database/sql"
)

// Querier is what a *sql.DB and a *sql.Tx both are.
type Querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// GroupID reads one group's id through q.
func GroupID(ctx context.Context, q *sql.DB, name string) (int, error) {
	var id int
	err := q.QueryRowContext(ctx, "SELECT id FROM groups WHERE name = $1", name).Scan(&id)
	return id, err
}
