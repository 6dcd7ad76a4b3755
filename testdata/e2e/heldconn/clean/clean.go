// Package clean holds only look-alikes that must stay silent.
package clean

import (
	"context"
	"database/sql"
	"net/http"
)

func CallAfterCommit(ctx context.Context, db *sql.DB, url string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = http.Get(url)
	return err
}
