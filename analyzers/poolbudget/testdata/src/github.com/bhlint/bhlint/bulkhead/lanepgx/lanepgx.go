// Package lanepgx is a stub of the runtime's lane-typed pgx pool.
package lanepgx

import (
	"context"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/jackc/pgx/v5/pgxpool"
)

type Pool[L bulkhead.Lane] struct{}

func New[L bulkhead.Lane](ctx context.Context, dsn string, cfg lanepool.Config) (*Pool[L], error) {
	return &Pool[L]{}, nil
}

func NewWithConfig[L bulkhead.Lane](ctx context.Context, pc *pgxpool.Config, cfg lanepool.Config) (*Pool[L], error) {
	return &Pool[L]{}, nil
}
