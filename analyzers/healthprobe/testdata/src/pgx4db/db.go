// Package pgx4db keeps the service's pgx v4 pool behind a struct field,
// as exposure-notifications-server's database.DB does.
package pgx4db

import (
	"context"

	"github.com/jackc/pgx/v4/pgxpool"
)

type DB struct {
	Pool *pgxpool.Pool
}

func New(ctx context.Context, dsn string) (*DB, error) {
	pool, err := pgxpool.Connect(ctx, dsn)
	if err != nil {
		return nil, err
	}
	return &DB{Pool: pool}, nil
}
