// Package clean: the configured RPC call made after commit stays silent.
package clean

import (
	"context"
	"database/sql"

	"example.com/e2e/config/rpc"
)

func QuoteAfterCommit(ctx context.Context, db *sql.DB, c *rpc.Client) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = c.Call(ctx, "tax.Quote", nil)
	return err
}
