// Package hrepo is a repository layer over sqlc's queries, after
// hatchet's: the pool sits in an embedded shared repository and is passed
// to each query.
package hrepo

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"sqlcq"
)

type HealthRepository interface {
	IsHealthy(ctx context.Context) bool
	Snapshot(ctx context.Context) bool
}

type sharedRepository struct {
	pool    *pgxpool.Pool
	queries *sqlcq.Queries
}

type healthRepository struct {
	*sharedRepository
}

func NewHealthRepository(pool *pgxpool.Pool) HealthRepository {
	return &healthRepository{sharedRepository: &sharedRepository{pool: pool, queries: sqlcq.New()}}
}

func (a *healthRepository) IsHealthy(ctx context.Context) bool {
	_, err := a.queries.Health(ctx, a.pool)
	return err == nil
}

// Snapshot runs the same query on an in-memory snapshot that implements
// the queries' DBTX: no pool is handed to it.
func (a *healthRepository) Snapshot(ctx context.Context) bool {
	_, err := a.queries.Health(ctx, memDB{})
	return err == nil
}

type memDB struct{}

func (memDB) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { return nil, nil }
