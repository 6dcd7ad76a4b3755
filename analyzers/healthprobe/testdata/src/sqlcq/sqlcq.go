// Package sqlcq is sqlc's code generated with the database handle as an
// argument of every query (emit_methods_with_db_argument): the pool is
// the caller's, passed as the package's DBTX interface, and the package
// imports pgx, not pgxpool: it cannot see the pool that implements DBTX.
package sqlcq

import (
	"context"

	"github.com/jackc/pgx/v5"
)

type DBTX interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

type Queries struct{}

func New() *Queries { return &Queries{} }

func (q *Queries) Health(ctx context.Context, db DBTX) ([]string, error) {
	rows, err := db.Query(ctx, "SELECT id FROM health")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return nil, nil
}
