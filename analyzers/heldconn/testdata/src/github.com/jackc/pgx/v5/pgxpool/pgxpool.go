package pgxpool

import (
	"context"

	"github.com/jackc/pgx/v5"
)

type Pool struct{}

func (p *Pool) Begin(ctx context.Context) (pgx.Tx, error)                            { return nil, nil }
func (p *Pool) Acquire(ctx context.Context) (*Conn, error)                           { return nil, nil }
func (p *Pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { return nil, nil }
func (p *Pool) Exec(ctx context.Context, sql string, args ...any) (pgx.CommandTag, error) {
	return pgx.CommandTag{}, nil
}

type Conn struct{}

func (c *Conn) Release() {}
func (c *Conn) Exec(ctx context.Context, sql string, args ...any) (pgx.CommandTag, error) {
	return pgx.CommandTag{}, nil
}
