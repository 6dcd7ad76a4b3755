// Package pgxpool is a stub of github.com/jackc/pgx/v5/pgxpool.
package pgxpool

import "context"

type Pool struct{}

type Config struct{ MaxConns int32 }

func New(ctx context.Context, dsn string) (*Pool, error)               { return &Pool{}, nil }
func NewWithConfig(ctx context.Context, config *Config) (*Pool, error) { return &Pool{}, nil }
func ParseConfig(connString string) (*Config, error)                   { return &Config{}, nil }
func (p *Pool) Close()                                                 {}
