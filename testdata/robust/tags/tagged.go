//go:build robusttag

package tags

import (
	"context"
	"database/sql"
	"net/http"
)

// Charge holds a transaction across client.Do, when built with robusttag.
func Charge(ctx context.Context, db *sql.DB, client *http.Client, req *http.Request) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return tx.Commit()
}
