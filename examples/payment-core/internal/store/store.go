// Package store keeps quotes and orders in PostgreSQL.
package store

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is the service's database access.
type Store struct{ pool *pgxpool.Pool }

// New wraps a pool.
func New(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// InTx runs fn inside a transaction and commits if it returns nil.
func (s *Store) InTx(ctx context.Context, fn func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, fn)
}

// SaveQuote records a tax quote for an order.
func SaveQuote(ctx context.Context, tx pgx.Tx, orderID string, taxCents int64) error {
	_, err := tx.Exec(ctx,
		`INSERT INTO tax_quotes (order_id, tax_cents) VALUES ($1, $2)
		 ON CONFLICT (order_id) DO UPDATE SET tax_cents = EXCLUDED.tax_cents`, orderID, taxCents)
	return err
}

// LockOrder takes the order's row lock for the rest of the transaction.
func LockOrder(ctx context.Context, tx pgx.Tx, orderID string) (amountCents int64, err error) {
	err = tx.QueryRow(ctx, `SELECT amount_cents FROM orders WHERE id = $1 FOR UPDATE`, orderID).Scan(&amountCents)
	return amountCents, err
}
