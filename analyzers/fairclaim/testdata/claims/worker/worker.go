// Package worker runs a claim written in package queries: no second finding here.
package worker

import (
	"context"
	"database/sql"

	"example.com/claims/queries"
)

func next(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, queries.ClaimSQL)
	return err
}

// A constant folding in the claim is reported where the claim is written.
func nextTagged(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, "/* worker */ "+queries.ClaimSQL)
	return err
}
