// Package clean holds the look-alikes: a claim filtered to one tenant, and
// the fair-share claim.
package clean

import (
	"context"
	"database/sql"
)

const claimForTenant = `SELECT id FROM jobs WHERE tenant_id = $1 AND status = 'queued'
ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`

const claimFairShare = `SELECT j.id FROM jobs j WHERE j.status = 'queued'
ORDER BY (SELECT count(*) FROM jobs r WHERE r.tenant_id = j.tenant_id AND r.status = 'running'), j.created_at
LIMIT 1 FOR UPDATE SKIP LOCKED`

// Claim takes the next job, one tenant's or by fair share.
func Claim(ctx context.Context, db *sql.DB, tenant int64) (int64, error) {
	var id int64
	q, args := claimFairShare, []any{}
	if tenant != 0 {
		q, args = claimForTenant, []any{tenant}
	}
	err := db.QueryRowContext(ctx, q, args...).Scan(&id)
	return id, err
}
