// Package rawcas claims tasks in SQL without a lock: an ordered SELECT,
// then an UPDATE that takes the row only if it is still unclaimed.
package rawcas

import (
	"context"
	"database/sql"
)

const schema = `
CREATE TABLE tasks (id bigserial PRIMARY KEY, org_id uuid NOT NULL, claimed_by text, created_at timestamptz);
CREATE TABLE mails (id bigserial PRIMARY KEY, claimed_by text, created_at timestamptz);
`

const nextTask = `SELECT id FROM tasks WHERE claimed_by IS NULL ORDER BY created_at LIMIT 1` // want `this claim takes the next row of tasks in ORDER BY created_at only, read and then taken with a compare-and-set update that requires claimed_by unclaimed \(rawcas.go:\d+\), without a lock: .*\(org_id, seen in CREATE TABLE tasks in the constant at rawcas.go:\d+\)`

func claim(ctx context.Context, db *sql.DB, worker string) (int64, error) {
	for {
		var id int64
		if err := db.QueryRowContext(ctx, nextTask).Scan(&id); err != nil {
			return 0, err
		}
		res, err := db.ExecContext(ctx, `UPDATE tasks SET claimed_by = $2 WHERE id = $1 AND claimed_by IS NULL`, id, worker)
		if err != nil {
			return 0, err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return id, nil
		}
	}
}

func claimInline(ctx context.Context, db *sql.DB, worker string) (int64, error) {
	var id int64
	if err := db.QueryRowContext(ctx, `SELECT id FROM tasks WHERE claimed_by IS NULL ORDER BY id LIMIT 1`).Scan(&id); err != nil { // want `this claim takes the next row of tasks in ORDER BY id only, read and then taken`
		return 0, err
	}
	_, err := db.ExecContext(ctx, `UPDATE tasks SET claimed_by = $1 WHERE id = $2 AND claimed_by IS NULL`, worker, id)
	return id, err
}

// ---- traps ----

// Bound to one tenant.
func claimForOrg(ctx context.Context, db *sql.DB, org, worker string) (int64, error) {
	var id int64
	if err := db.QueryRowContext(ctx, `SELECT id FROM tasks WHERE org_id = $1 AND claimed_by IS NULL ORDER BY created_at LIMIT 1`, org).Scan(&id); err != nil {
		return 0, err
	}
	_, err := db.ExecContext(ctx, `UPDATE tasks SET claimed_by = $1 WHERE id = $2 AND claimed_by IS NULL`, worker, id)
	return id, err
}

// A sweep: every row read is released, none is chosen.
func releaseAll(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `SELECT id FROM tasks WHERE claimed_by IS NULL ORDER BY created_at`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, `UPDATE tasks SET claimed_by = 'sweeper' WHERE id = $1 AND claimed_by IS NULL`, id); err != nil {
			return err
		}
	}
	return rows.Err()
}

// A write that tests a column it does not set (a soft delete) is no claim.
func touchOldest(ctx context.Context, db *sql.DB) error {
	var id int64
	if err := db.QueryRowContext(ctx, `SELECT id FROM tasks ORDER BY created_at LIMIT 1`).Scan(&id); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, `UPDATE tasks SET created_at = now() WHERE id = $1 AND deleted_at IS NULL`, id)
	return err
}

// A single-tenant table.
func claimMail(ctx context.Context, db *sql.DB, worker string) (int64, error) {
	var id int64
	if err := db.QueryRowContext(ctx, `SELECT id FROM mails WHERE claimed_by IS NULL ORDER BY created_at LIMIT 1`).Scan(&id); err != nil {
		return 0, err
	}
	_, err := db.ExecContext(ctx, `UPDATE mails SET claimed_by = $1 WHERE id = $2 AND claimed_by IS NULL`, worker, id)
	return id, err
}
