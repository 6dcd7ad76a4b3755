// Package pools holds each lane's own PostgreSQL pool, sized from the
// payment spec: card_auth 40 connections, fraud 15, tax 5. A slow tax API
// can hold at most the tax lane's five.
package pools

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// CardAuth is card authorisation's pool.
var CardAuth *pgxpool.Pool //bhlint:lane card_auth

// Fraud is fraud scoring's pool.
var Fraud *pgxpool.Pool //bhlint:lane fraud

// Tax is the tax quotes' pool.
var Tax *pgxpool.Pool //bhlint:lane tax

// Open opens the three pools, each with its own connection limit.
func Open(ctx context.Context, dsn string) (err error) {
	if CardAuth, err = open(ctx, dsn, 40); err != nil {
		return err
	}
	if Fraud, err = open(ctx, dsn, 15); err != nil {
		return err
	}
	Tax, err = open(ctx, dsn, 5)
	return err
}

func open(ctx context.Context, dsn string, maxConns int32) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("pools: parsing the DSN: %w", err)
	}
	cfg.MaxConns = maxConns
	return pgxpool.NewWithConfig(ctx, cfg)
}
