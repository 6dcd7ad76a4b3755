package fairclaim

import (
	"maps"
	"slices"
	"testing"
)

// Statements of the shapes real queues use, read by fifoClaims: what is a
// first-in-first-out claim, its table and order, and the tenant column the
// statement itself shows.
func TestFIFOClaims(t *testing.T) {
	cases := []struct {
		name, sql    string
		want         bool
		table        string
		order        []string
		tenant, seen string
	}{{
		name: "sqlc claim returning an organization, lock before LIMIT",
		sql: `-- name: AcquireProvisionerJob :one
UPDATE provisioner_jobs SET started_at = $1, worker_id = $2
WHERE id = (
	SELECT id FROM provisioner_jobs AS nested
	WHERE nested.started_at IS NULL
		-- Ensure the caller has the correct provisioner.
		AND nested.provisioner = ANY($3 :: provisioner_type [ ])
		AND nested.tags <@ $4 :: jsonb
	ORDER BY nested.created_at
	FOR UPDATE
	SKIP LOCKED
	LIMIT 1
) RETURNING id, created_at, organization_id, provisioner, tags`,
		want: true, table: "provisioner_jobs", order: []string{"created_at"},
		tenant: "organization_id", seen: "its RETURNING list",
	}, {
		name: "a library's claim: priority, age and id, no tenant in the statement",
		sql: `-- name: JobGetAvailable :many
WITH locked_jobs AS (
	SELECT id, args, priority, queue, state, scheduled_at FROM /* TEMPLATE: schema */river_job
	WHERE state = 'available' AND queue = $4::text AND scheduled_at <= coalesce($1::timestamptz, now())
	ORDER BY priority ASC, scheduled_at ASC, id ASC
	LIMIT $5::integer
	FOR UPDATE
	SKIP LOCKED
)
UPDATE river_job SET state = 'running',
	attempted_by = river_job.attempted_by[array_length(river_job.attempted_by, 1) + 2 - $2:]
FROM locked_jobs WHERE river_job.id = locked_jobs.id
RETURNING river_job.id`,
		want: true, table: "river_job", order: []string{"priority", "scheduled_at", "id"},
	}, {
		name: "FIFO with a schema-qualified table and NO KEY UPDATE",
		sql:  `select id, null::int as slot from app.exports_jobs where state = 0 order by id limit 1 for no key update skip locked`,
		want: true, table: "exports_jobs", order: []string{"id"},
	}, {
		name: "bound to one tenant",
		sql:  `select id from jobs where tenant = $1 and state = 0 order by id limit 1 for update skip locked`,
	}, {
		name: "bound to one tenant, value first",
		sql:  `select id, org_id from jobs where 'acme' = org_id order by id for update skip locked`,
	}, {
		name: "ordered by the tenant's running count",
		sql:  `select j.id, j.tenant_id from jobs j order by (select count(*) from jobs r where r.tenant_id = j.tenant_id), j.created_at for update skip locked`,
	}, {
		name: "ordered by a column other than age",
		sql:  `select id, tenant_id from jobs order by last_served_at, id for update skip locked`,
	}, {
		name: "ordered by priority alone",
		sql:  `select id, tenant_id from jobs order by priority desc for update skip locked`,
	}, {
		name: "a reaper of expired leases takes running jobs",
		sql:  `select id, slot, tenant from jobs where state = 'running' and lease_until < now() order by id limit 1000 for update skip locked`,
	}, {
		name: "a reaper written with a placeholder state",
		sql:  `select id, slot, tenant from JOBS where state = RUNNING and lease_until < now() order by id limit 1000 for update skip locked`,
	}, {
		name: "queued or running with an expired lease is a claim",
		sql:  `select id, tenant_id from jobs where state = 'queued' or (state = 'running' and lease_until < now()) order by id limit 1 for update skip locked`,
		want: true, table: "jobs", order: []string{"id"}, tenant: "tenant_id", seen: "the claim's SELECT list",
	}, {
		name: "a lock in a SQL comment is no lock",
		sql: `SELECT id, tenant_id FROM jobs ORDER BY created_at LIMIT 1 -- FOR UPDATE SKIP LOCKED
/* FOR UPDATE SKIP LOCKED */`,
	}, {
		name: "a tenant list with a cast",
		sql:  `SELECT id FROM jobs WHERE tenant_id IN ($1::uuid[], 'acme') ORDER BY created_at FOR UPDATE SKIP LOCKED`,
		want: true, table: "jobs", order: []string{"created_at"}, tenant: "tenant_id", seen: "its WHERE, matched against a list of tenants",
	}, {
		name: "a tenant compared with a subquery",
		sql:  `SELECT id, tenant_id FROM jobs WHERE tenant_id = (SELECT tenant_id FROM next_tenant) ORDER BY created_at FOR UPDATE SKIP LOCKED`,
	}, {
		name: "a condition filled in by fmt",
		sql:  `SELECT id, tenant_id FROM jobs WHERE %s ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
	}, {
		name: "a condition filled in by a template",
		sql:  `SELECT id, tenant_id FROM jobs WHERE {{.Where}} ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
	}, {
		name: "a table filled in by fmt, the tenant in the statement",
		sql:  `SELECT id, tenant_id FROM %s ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
		want: true, order: []string{"created_at"}, tenant: "tenant_id", seen: "the claim's SELECT list",
	}, {
		name: "a table filled in by fmt and a condition too",
		sql:  `SELECT id, tenant_id FROM %s WHERE %s ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
	}, {
		name: "a limit filled in by fmt",
		sql:  `SELECT id, tenant_id FROM jobs ORDER BY created_at LIMIT %d FOR UPDATE SKIP LOCKED`,
		want: true, table: "jobs", order: []string{"created_at"}, tenant: "tenant_id", seen: "the claim's SELECT list",
	}, {
		name: "FOR UPDATE NOWAIT is not SKIP LOCKED",
		sql:  `select id, tenant_id from jobs order by id for update nowait`,
	}, {
		name: "an alias named like a tenant is not a tenant column",
		sql:  `select org.id from jobs org order by org.id for update skip locked`,
		want: true, table: "jobs", order: []string{"id"},
	}, {
		name: "the lock of a statement after another",
		sql:  `SET LOCAL lock_timeout = '1s'; SELECT id, team_id FROM builds ORDER BY queued_at NULLS FIRST LIMIT 1 FOR UPDATE SKIP LOCKED;`,
		want: true, table: "builds", order: []string{"queued_at"}, tenant: "team_id", seen: "the claim's SELECT list",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := fifoClaims(tc.sql)
			if !tc.want {
				if len(got) != 0 {
					t.Fatalf("fifoClaims = %+v, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("fifoClaims = %+v, want one claim", got)
			}
			c := got[0]
			if c.table != tc.table || !slices.Equal(c.order, tc.order) || c.tenant != tc.tenant || c.seen != tc.seen {
				t.Errorf("fifoClaims = %+v, want table %q order %q tenant %q seen %q", c, tc.table, tc.order, tc.tenant, tc.seen)
			}
		})
	}
}

func TestSQLCName(t *testing.T) {
	got := fifoClaims("-- name: ClaimJob :one\nSELECT id, tenant_id FROM jobs ORDER BY id FOR UPDATE SKIP LOCKED")
	if len(got) != 1 || got[0].name != "ClaimJob" {
		t.Fatalf("fifoClaims = %+v, want one claim named ClaimJob", got)
	}
}

func TestSchemaDefinitions(t *testing.T) {
	s := schema{}
	s.addDefinitions(`
CREATE UNLOGGED TABLE IF NOT EXISTS "public"."Jobs" (
	"id" bigserial,
	CONSTRAINT pk PRIMARY KEY (id),
	payload jsonb DEFAULT '{"tenant_id": 1}',
	"Tenant_ID" uuid
);
CREATE TABLE mail (id int, user_id int);
CREATE TABLE action_run_job (id int, repo_id int, owner_id int);
CREATE TABLE builds (id int, owner_id int, org_id int);
ALTER TABLE ONLY exports ADD COLUMN IF NOT EXISTS workspace_id bigint;
CREATE INDEX ON mail (tenant_id);`, func(off int) string { return "here" })
	want := schema{
		"jobs":    {column: "tenant_id", where: "here"},
		"exports": {column: "workspace_id", where: "here"},
		// An owner is the tenant of rows with no tenant column, and only then.
		"action_run_job": {column: "owner_id", where: "here"},
		"builds":         {column: "org_id", where: "here"},
	}
	if !maps.Equal(s, want) {
		t.Fatalf("schema = %+v, want %+v", s, want)
	}
}

// FuzzReader: no text makes the reader panic. The seeds are the broken
// shapes most likely to: unterminated quotes and comments, unbalanced
// parentheses, a lock with nothing before it.
func FuzzReader(f *testing.F) {
	for _, seed := range []string{
		"", "'", `"`, "`", "/*", "--", "(", ")))", "$", ":", "@", "::", "$$",
		"for update skip locked", "select for update skip locked", "select from for update skip locked",
		"select * from order by for update skip locked", "select x from t order by , for update skip locked",
		"select x from t order by a. for update skip locked", "create table", "create table t (", "alter table t add",
		"select 'unterminated from t order by id for update skip locked",
		"select id from (select id from t order by id for update skip locked",
		"\xff\xfe select \x00 from t order by id for update of skip locked",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fifoClaims(text)
		orderedReads(text)
		casUpdates(text)
		schema{}.addDefinitions(text, func(int) string { return "" })
	})
}

// TestCASUpdates: an UPDATE is a compare-and-set claim when it picks one row
// by id, tests a column for its unclaimed value and sets that column.
func TestCASUpdates(t *testing.T) {
	for _, tc := range []struct {
		text, column string
	}{
		{`UPDATE tasks SET claimed_by = $2 WHERE id = $1 AND claimed_by IS NULL`, "claimed_by"},
		{`UPDATE public.jobs SET status = 'running', started_at = now() WHERE id = ? AND status = 'pending' RETURNING id`, "status"},
		{`UPDATE action_run_job SET task_id = $1 WHERE id = $2 AND task_id = 0`, "task_id"},
		{`UPDATE tasks SET claimed_by = $2 WHERE claimed_by IS NULL`, ""},                     // no row named: a bulk update
		{`UPDATE tasks SET created_at = now() WHERE id = $1 AND deleted_at IS NULL`, ""},      // tests a column it does not set
		{`UPDATE tasks SET claimed_by = $2 WHERE id = $1 AND claimed_by IS NOT NULL`, ""},     // requires a claimed row
		{`UPDATE jobs SET status = 'done' WHERE id = $1 AND status = 'running'`, ""},          // a running state is not unclaimed
		{`SELECT id FROM tasks WHERE id = $1 AND claimed_by IS NULL ORDER BY created_at`, ""}, // not an update
	} {
		got := casUpdates(tc.text)
		switch {
		case tc.column == "" && len(got) != 0:
			t.Errorf("casUpdates(%q) = %+v, want none", tc.text, got)
		case tc.column != "" && (len(got) != 1 || got[0].column != tc.column):
			t.Errorf("casUpdates(%q) = %+v, want one testing %s", tc.text, got, tc.column)
		}
	}
}

// TestOrderedReads: a read in order of age only, unlocked and bound to no
// tenant; a locking claim is fifoClaims's, not this.
func TestOrderedReads(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{`SELECT id FROM tasks WHERE claimed_by IS NULL ORDER BY created_at LIMIT 1`, true},
		{`SELECT * FROM action_run_job WHERE (task_id=0 AND status=1) ORDER BY updated, id`, true},
		{`SELECT id FROM tasks WHERE org_id = $1 ORDER BY created_at`, false}, // one tenant
		{`SELECT id FROM tasks WHERE owner_id = ? ORDER BY id`, false},        // one owner
		{`SELECT id FROM tasks ORDER BY name`, false},                         // not by age
		{`SELECT id FROM tasks ORDER BY id FOR UPDATE SKIP LOCKED`, false},    // a locking claim
		{`UPDATE tasks SET claimed_by = $1 WHERE id = (SELECT id FROM tasks ORDER BY id LIMIT 1)`, false},
	} {
		if got := len(orderedReads(tc.text)) == 1; got != tc.want {
			t.Errorf("orderedReads(%q) found %v, want %v", tc.text, got, tc.want)
		}
	}
}
