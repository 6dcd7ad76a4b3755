// Package merchant reads the merchant table, which belongs to card
// authorisation: its queries run on the card_auth pool.
package merchant

import (
	"context"

	"github.com/bhlint/bhlint/examples/payment-core/internal/pools"
)

// Status is the merchant's account status, read by card authorisation.
func Status(ctx context.Context, merchantID string) (status string, err error) {
	err = pools.CardAuth.QueryRow(ctx, `SELECT status FROM merchants WHERE id = $1`, merchantID).Scan(&status)
	return status, err
}

// Country is the merchant's country of registration.
func Country(ctx context.Context, merchantID string) (string, error) {
	return row(ctx, `SELECT country FROM merchants WHERE id = $1`, merchantID)
}

func row(ctx context.Context, query, merchantID string) (value string, err error) {
	err = pools.CardAuth.QueryRow(ctx, query, merchantID).Scan(&value)
	return value, err
}
