// Package ok type-checks and has one finding: the rest of the module must
// still be analysed when its siblings do not compile.
package ok

import (
	"context"
	"database/sql"
	"net/http"
)

// Charge holds a transaction across an HTTP call.
func Charge(ctx context.Context, db *sql.DB, client *http.Client) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://tax.example/quote", nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return tx.Commit()
}
