// Package constants holds claims written as constant strings.
package constants

import (
	"context"
	"database/sql"
)

// claimOldest is the textbook claim: FIFO across every tenant whose jobs it returns.
const claimOldest = /* want `ERR_FIFO_CLAIM_ACROSS_TENANTS: this claim takes the next row of jobs in ORDER BY created_at only, with FOR UPDATE SKIP LOCKED: .*\(tenant_id, seen in its RETURNING list\).*ORDER BY \(SELECT count\(\*\) FROM jobs r WHERE r.tenant_id = j.tenant_id` */ `
WITH next AS (SELECT id FROM jobs WHERE status = 'queued'
	ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
UPDATE jobs SET status = 'running' FROM next WHERE jobs.id = next.id
RETURNING jobs.id, jobs.tenant_id`

func claimOldestJob(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, claimOldest)
	return err
}

// A priority and then the age is FIFO across tenants within each priority.
func claimByPriority(ctx context.Context, db *sql.DB) error {
	_, err := db.QueryContext(ctx, "SELECT id, org_id FROM tasks WHERE state = 'available' ORDER BY priority DESC, scheduled_at ASC, id LIMIT 10 FOR NO KEY UPDATE SKIP LOCKED") // want `of tasks in ORDER BY priority, scheduled_at, id only, .*\(org_id, seen in the claim's SELECT list\)`
	return err
}

const lockSuffix = " FOR UPDATE SKIP LOCKED"

// Constants folded from concatenation are one statement.
func claimConcatenated(ctx context.Context, db *sql.DB) error {
	_, err := db.QueryContext(ctx, "SELECT id, workspace_id FROM exports WHERE done = false "+ // want `of exports in ORDER BY enqueued_at only`
		"ORDER BY enqueued_at LIMIT 1"+lockSuffix)
	return err
}

// The lock before LIMIT, inside an IN subquery, MySQL quoting, and a tenant
// list: FIFO across the tenants of the list.
func claimForTenantList(ctx context.Context, db *sql.DB, tenants []string) error {
	_, err := db.ExecContext(ctx, "UPDATE `jobs` SET state = 'running' WHERE id IN (SELECT id FROM `jobs` WHERE tenant_id = ANY($1) ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 100)", tenants) // want `ORDER BY id only, .*\(tenant_id, seen in its WHERE, matched against a list of tenants\)`
	return err
}

// ---- traps ----

// claimOneTenant is FIFO within the tenant it is given: fine.
func claimOneTenant(ctx context.Context, db *sql.DB, tenant string) error {
	_, err := db.ExecContext(ctx, `
UPDATE jobs SET status = 'running' WHERE id = (
	SELECT id FROM jobs WHERE tenant_id = $1 AND status = 'queued'
	ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
RETURNING id, tenant_id`, tenant)
	return err
}

// claimOneProject binds the tenant outside the subquery.
func claimOneProject(ctx context.Context, db *sql.DB, project int) error {
	_, err := db.ExecContext(ctx, `UPDATE cron_events SET status = 'locked'
WHERE id IN (SELECT t.id FROM cron_events t WHERE t.status = 'scheduled' ORDER BY t.scheduled_at FOR UPDATE SKIP LOCKED LIMIT 100)
AND project_id = ?`, project)
	return err
}

// claimFairShare orders by the tenant's running count first.
func claimFairShare(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `
WITH next AS (SELECT j.id FROM jobs j WHERE j.status = 'queued'
	ORDER BY (SELECT count(*) FROM jobs r WHERE r.tenant_id = j.tenant_id AND r.status = 'running'), j.created_at
	LIMIT 1 FOR UPDATE SKIP LOCKED)
UPDATE jobs SET status = 'running', started_at = now() FROM next WHERE jobs.id = next.id
RETURNING jobs.id, jobs.tenant_id`)
	return err
}

// claimHardCap locks one of the tenant's slot rows and joins on it.
func claimHardCap(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `
SELECT j.id, j.tenant_id FROM jobs j JOIN tenant_slots s ON s.tenant_id = j.tenant_id AND s.job IS NULL
WHERE j.status = 'queued' ORDER BY j.created_at LIMIT 1 FOR UPDATE OF s SKIP LOCKED`)
	return err
}

// claimSlot locks one slot of one tenant, ordered by slot.
func claimSlot(ctx context.Context, db *sql.DB, tenant string) error {
	_, err := db.ExecContext(ctx, `SELECT slot FROM tenant_slots WHERE tenant_id = $1 AND job IS NULL ORDER BY slot LIMIT 1 FOR UPDATE SKIP LOCKED`, tenant)
	return err
}

// claimSoftCap leaves out tenants at their cap.
func claimSoftCap(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `SELECT id, tenant_id FROM jobs WHERE status = 'queued'
AND tenant_id NOT IN (SELECT tenant_id FROM jobs WHERE status = 'running' GROUP BY tenant_id HAVING count(*) >= 4)
ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`)
	return err
}

// lockOneByID is FOR UPDATE without SKIP LOCKED on one row: not a claim.
func lockOneByID(ctx context.Context, db *sql.DB, id int64) error {
	_, err := db.ExecContext(ctx, `SELECT id, tenant_id FROM jobs WHERE id = $1 ORDER BY id FOR UPDATE`, id)
	return err
}

// claimUnordered has no ORDER BY.
func claimUnordered(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `SELECT id, tenant_id FROM jobs WHERE status = 'queued' LIMIT 1 FOR UPDATE SKIP LOCKED`)
	return err
}

// claimNoTenant returns no tenant and its table (undefined anywhere) shows none.
func claimNoTenant(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `SELECT id, payload FROM mailings WHERE sent = false ORDER BY id LIMIT 10 FOR UPDATE SKIP LOCKED`)
	return err
}

// claimDynamicOrder orders by a column chosen at run time: unreadable.
func claimDynamicOrder(ctx context.Context, db *sql.DB, col string) error {
	_, err := db.ExecContext(ctx, "SELECT id, tenant_id FROM jobs ORDER BY "+col+" LIMIT 1 FOR UPDATE SKIP LOCKED")
	return err
}

// A sharing lock is not a claim.
func readShared(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `SELECT id, tenant_id FROM jobs ORDER BY id FOR SHARE SKIP LOCKED`)
	return err
}

// SELECT id, tenant_id FROM jobs ORDER BY created_at FOR UPDATE SKIP LOCKED in a comment is not a claim.

// reapExpired takes back running jobs whose lease ran out: not a claim.
func reapExpired(ctx context.Context, db *sql.DB) error {
	_, err := db.ExecContext(ctx, `UPDATE jobs SET status = 'queued'
WHERE id IN (SELECT id FROM jobs WHERE status = 'running' AND lease_until < now() ORDER BY id LIMIT 1000 FOR UPDATE SKIP LOCKED)
RETURNING id, tenant_id`)
	return err
}
