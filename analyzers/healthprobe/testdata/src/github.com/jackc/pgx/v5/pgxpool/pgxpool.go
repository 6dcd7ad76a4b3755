// Package pgxpool is a stub of pgx v5's pool.
package pgxpool

import "context"

type Pool struct{}

type Stat struct{}

func (p *Pool) Ping(ctx context.Context) error { return nil }
func (p *Pool) Stat() *Stat                    { return &Stat{} }
func (p *Pool) Close()                         {}
