// Package schemafile holds claims whose statements show no tenant: the
// table's definition does.
package schemafile

import (
	"context"
	"database/sql"
)

// The tenant column comes from migrations/002_queue_org.sql.
func claimQueueJob(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `SELECT * FROM queue_jobs WHERE kind = $1 ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`, "mail") // want `of queue_jobs in ORDER BY created_at only, .*\(org_id, seen in CREATE TABLE queue_jobs in migrations/002_queue_org.sql:1\)`
	return err
}

const schema = `
CREATE TABLE exports (
	id bigserial primary key,
	account_id bigint not null,
	CONSTRAINT exports_account FOREIGN KEY (account_id) REFERENCES accounts (id),
	queued_at timestamptz not null
);`

// The tenant column comes from the constant schema above.
func claimExport(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `SELECT id FROM exports ORDER BY queued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`) // want `of exports in ORDER BY .*\(account_id, seen in CREATE TABLE exports in the constant at schemafile.go:\d+\)`
	return err
}

// ---- traps ----

// A single-tenant queue library's claim (river's): its table has no tenant column.
func claimRiverJob(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `
WITH locked_jobs AS (
	SELECT * FROM river_job WHERE state = 'available' AND queue = $1
	ORDER BY priority ASC, scheduled_at ASC, id ASC LIMIT $2 FOR UPDATE SKIP LOCKED
)
UPDATE river_job SET state = 'running' FROM locked_jobs WHERE river_job.id = locked_jobs.id
RETURNING river_job.*`, "default", 10)
	return err
}

// A table defined nowhere shows no tenant.
func claimUnknownTable(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `SELECT * FROM outbox ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED`)
	return err
}
