// Package dispatch uses another package's executor wrapper. // want package:`lanes\(dispatch.Cancel@tax, `
package dispatch

import (
	"context"

	"wiring"
)

// Cancel is the tax lane handing card work to wiring.InLane: silent.
//
//bhlint:lane tax
func Cancel(ctx context.Context, exec *bulkheadExec) error {
	return wiring.InLane(ctx, exec, func(ctx context.Context) error {
		return wiring.CardPool.QueryRowContext(ctx, "SELECT 1").Err()
	})
}

// Refund hands tax work to the card lane through the wrapper.
func Refund(ctx context.Context, exec *bulkheadExec) error {
	return wiring.InLane(ctx, exec, func(ctx context.Context) error {
		return wiring.TaxPool.QueryRowContext(ctx, "SELECT 1").Err() // want `lane card_auth reaches wiring.TaxPool, the pool of lane tax, by the func literal passed to wiring.InLane in Refund → wiring.TaxPool`
	})
}
