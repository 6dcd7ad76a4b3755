// Package app calls the generated queries of package gen.
package app

import (
	"context"
	"database/sql"

	"example.com/claims/gen"
)

func work(ctx context.Context, db *sql.DB) error {
	q := gen.New(db)
	if _, err := q.ClaimJob(ctx); err != nil { // want `ClaimJob runs the generated query ClaimJob, which takes the next row of jobs`
		return err
	}
	_, err := q.ClaimTenantJob(ctx, "tenant-a") // bound to one tenant: fine
	return err
}

// workThrough calls through sqlc's Querier interface.
func workThrough(ctx context.Context, q gen.Querier) error {
	_, err := q.ClaimJob(ctx) // want `ClaimJob runs the generated query ClaimJob`
	return err
}
