// Package sq builds claims with squirrel.
package sq

import (
	"database/sql"

	sq "github.com/Masterminds/squirrel"
)

var psql = sq.StatementBuilder.PlaceholderFormat(sq.Dollar)

func claimBuilt(db *sql.DB) (string, error) {
	query, _, err := psql.Select("id", "tenant_id", "payload").
		From("jobs").
		Where("status = 'queued'").
		OrderBy("created_at ASC").
		Limit(1).
		Suffix("FOR UPDATE SKIP LOCKED"). // want `this claim takes the next row of jobs in ORDER BY created_at only, .*\(tenant_id, seen in the claim's SELECT list\)`
		ToSql()
	return query, err
}

// The table's definition (migrations/001_queue.sql, 002) shows the tenant.
func claimBuiltFromSchema(db *sql.DB) sq.SelectBuilder {
	return sq.Select("*").From("queue_jobs").OrderBy("id").Suffix("FOR UPDATE SKIP LOCKED") // want `of queue_jobs in ORDER BY .*\(org_id, seen in CREATE TABLE queue_jobs in migrations/002_queue_org.sql:1\)`
}

// ---- traps ----

// Bound to one tenant by squirrel's Eq.
func claimBuiltForTenant(tenant string) sq.SelectBuilder {
	return sq.Select("id", "tenant_id").From("jobs").Where(sq.Eq{"tenant_id": tenant}).OrderBy("created_at").Suffix("FOR UPDATE SKIP LOCKED")
}

// Bound to one tenant by a constant condition.
func claimBuiltForTenantText(tenant string) sq.SelectBuilder {
	return sq.Select("id", "tenant_id").From("jobs").Where("tenant_id = ? AND status = 'queued'", tenant).OrderBy("created_at").Suffix("FOR UPDATE SKIP LOCKED")
}

// A condition built at run time may bind the tenant: unreadable.
func claimBuiltWithFilter(filter interface{}) sq.SelectBuilder {
	return sq.Select("id", "tenant_id").From("jobs").Where(filter).OrderBy("created_at").Suffix("FOR UPDATE SKIP LOCKED")
}

// A builder bound to one tenant in an earlier statement.
func claimOnBase(tenant string) sq.SelectBuilder {
	base := sq.Select("id").From("jobs").Where("tenant_id = ?", tenant)
	return base.Columns("tenant_id").OrderBy("created_at").Suffix("FOR UPDATE SKIP LOCKED")
}

// No lock: a listing, not a claim.
func listJobs() sq.SelectBuilder {
	return sq.Select("id", "tenant_id").From("jobs").OrderBy("created_at")
}
