// Package jobs runs the tenants' jobs from one table.
package jobs

import (
	"context"
	"database/sql"
	"time"
)

// claimNext takes the oldest queued job of any tenant: FIFO across tenants.
const claimNext = `UPDATE jobs SET status = 'running'
WHERE id = (SELECT id FROM jobs WHERE status = 'queued'
            ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
RETURNING id, tenant_id`

// Work claims and runs jobs until the process ends.
func Work(db *sql.DB) {
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var id, tenant int64
		err := db.QueryRowContext(ctx, claimNext).Scan(&id, &tenant)
		cancel()
		if err != nil {
			time.Sleep(time.Second)
		}
	}
}
