// Package store shows the catalogue, money and analyzer settings.
package store

import (
	"context"
	"database/sql"
	"net/http"

	"example.com/e2e/config/rpc"
)

// Quote holds a transaction across the in-house RPC call: found only because
// .bhlint.yml adds rpc.Client.Call to the network catalogue.
func Quote(ctx context.Context, db *sql.DB, c *rpc.Client) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := c.Call(ctx, "tax.Quote", nil); err != nil {
		return err
	}
	return tx.Commit()
}

// Gratuity invents a value for a money word .bhlint.yml adds.
func Gratuity(ctx context.Context, c *rpc.Client) (gratuity float64, err error) {
	if _, err := c.Call(ctx, "tips.Suggest", nil); err != nil {
		return 0.15, nil
	}
	return 0.18, nil
}

// ShedBusy would be a retryafter finding; .bhlint.yml turns retryafter off.
func ShedBusy(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusServiceUnavailable)
}
