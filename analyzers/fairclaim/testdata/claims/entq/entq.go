// Package entq claims jobs with an ent client.
package entq

import (
	"context"

	"entgo.io/ent/dialect/sql"

	"example.com/claims/ent"
	"example.com/claims/ent/job"
	"example.com/claims/ent/mailing"
)

func claim(ctx context.Context, client *ent.Client) (*ent.Job, error) {
	return client.Job.Query().
		Where(job.StatusEQ("queued")).
		Order(job.ByCreatedAt()).
		Limit(1).
		ForUpdate(sql.WithLockAction(sql.SkipLocked)). // want `this claim takes the next row of jobs in ORDER BY created_at only, .*\(tenant_id, seen in the ent field job.FieldTenantID\)`
		First(ctx)
}

// FIFO across the tenants of a list.
func claimForTenants(ctx context.Context, client *ent.Client, tenants []string) (*ent.Job, error) {
	return client.Job.Query().Where(job.TenantIDIn(tenants...)).Order(job.ByID()).ForUpdate(sql.WithLockAction(sql.SkipLocked)).First(ctx) // want `ORDER BY id only, .*\(tenant_id, seen in its WHERE, matched against a list of tenants\)`
}

// ---- traps ----

// Bound to one tenant.
func claimForTenant(ctx context.Context, client *ent.Client, tenant string) (*ent.Job, error) {
	return client.Job.Query().Where(job.TenantIDEQ(tenant), job.StatusEQ("queued")).Order(job.ByCreatedAt()).ForUpdate(sql.WithLockAction(sql.SkipLocked)).First(ctx)
}

// A predicate the reader cannot see through may bind the tenant.
func claimWithOr(ctx context.Context, client *ent.Client, tenant string) (*ent.Job, error) {
	return client.Job.Query().Where(job.Or(job.TenantID(tenant))).Order(job.ByCreatedAt()).ForUpdate(sql.WithLockAction(sql.SkipLocked)).First(ctx)
}

// An entity with no tenant field.
func claimMailing(ctx context.Context, client *ent.Client) (*ent.Mailing, error) {
	return client.Mailing.Query().Where(mailing.SentAtIsNil()).Order(mailing.ByID()).ForUpdate(sql.WithLockAction(sql.SkipLocked)).First(ctx)
}

// A query bound to one tenant in an earlier statement.
func claimOnBase(ctx context.Context, client *ent.Client, tenant string) (*ent.Job, error) {
	base := client.Job.Query().Where(job.TenantIDEQ(tenant))
	return base.Order(job.ByCreatedAt()).ForUpdate(sql.WithLockAction(sql.SkipLocked)).First(ctx)
}

// NOWAIT is not SKIP LOCKED.
func lockOldest(ctx context.Context, client *ent.Client) (*ent.Job, error) {
	return client.Job.Query().Order(job.ByCreatedAt()).ForUpdate(sql.WithLockAction(sql.NoWait)).First(ctx)
}
