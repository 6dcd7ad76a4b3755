// Package goquq builds claims with goqu.
package goquq

import (
	"database/sql"

	"github.com/doug-martin/goqu/v9"
	"github.com/doug-martin/goqu/v9/exp"
)

var _ *sql.DB

func claim() (string, []interface{}, error) {
	return goqu.Dialect("postgres").From("jobs").Select("id", "tenant_id").
		Where(goqu.C("status").Eq("queued")).
		Order(goqu.C("created_at").Asc()).
		Limit(1).
		ForUpdate(exp.SkipLocked). // want `this claim takes the next row of jobs in ORDER BY created_at only, .*\(tenant_id, seen in the claim's SELECT list\)`
		ToSQL()
}

// The table by goqu.T, the order by goqu.I, conditions in an Ex map; the
// tenant from the module's migrations.
func claimQueueJob() *goqu.SelectDataset {
	return goqu.From(goqu.T("queue_jobs")).Where(goqu.Ex{"kind": "mail"}).Order(goqu.I("queue_jobs.id").Desc()).ForUpdate(exp.SkipLocked) // want `of queue_jobs in ORDER BY id only, .*\(org_id, seen in CREATE TABLE queue_jobs in migrations/002_queue_org.sql:1\)`
}

// ---- traps ----

// Bound to one tenant.
func claimForTenant(tenant string) *goqu.SelectDataset {
	return goqu.From("jobs").Select("id", "tenant_id").Where(goqu.C("tenant_id").Eq(tenant)).Order(goqu.C("created_at").Asc()).ForUpdate(exp.SkipLocked)
}

// Bound to one tenant by a map.
func claimForTenantEx(tenant string) *goqu.SelectDataset {
	return goqu.From("jobs").Select("id", "tenant_id").Where(goqu.Ex{"tenant_id": tenant}).Order(goqu.C("created_at").Asc()).ForUpdate(exp.SkipLocked)
}

// Other tenants than one: the tenant is used, not read as FIFO.
func claimOthers(tenant string) *goqu.SelectDataset {
	return goqu.From("jobs").Select("id", "tenant_id").Where(goqu.C("tenant_id").Neq(tenant)).Order(goqu.C("created_at").Asc()).ForUpdate(exp.SkipLocked)
}

// NOWAIT is not SKIP LOCKED.
func lockOldest() *goqu.SelectDataset {
	return goqu.From("jobs").Select("id", "tenant_id").Order(goqu.C("created_at").Asc()).ForUpdate(exp.NoWait)
}

// An order the reader cannot see through.
func claimOrderedBy(order exp.OrderedExpression) *goqu.SelectDataset {
	return goqu.From("jobs").Select("id", "tenant_id").Order(order).ForUpdate(exp.SkipLocked)
}
