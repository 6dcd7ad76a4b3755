// Package pgxpool is a stub of github.com/jackc/pgx/v5/pgxpool.
package pgxpool

import (
	"context"

	"github.com/jackc/pgx/v5"
)

type Pool struct{}

func New(ctx context.Context, dsn string) (*Pool, error)                             { return &Pool{}, nil }
func (p *Pool) Acquire(ctx context.Context) (*Conn, error)                           { return nil, nil }
func (p *Pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { return nil, nil }
func (p *Pool) Exec(ctx context.Context, sql string, args ...any) (pgx.CommandTag, error) {
	return pgx.CommandTag{}, nil
}
func (p *Pool) Close() {}

type Conn struct{}

func (c *Conn) Release() {}
