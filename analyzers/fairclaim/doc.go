/*
Package fairclaim defines an Analyzer that reports job queues on SQL whose
workers claim jobs first-in-first-out across tenants.

# Analyzer fairclaim

fairclaim: report a job claim (FOR UPDATE SKIP LOCKED, or an ordered read and a compare-and-set update) that takes the oldest job whatever its tenant

ERR_FIFO_CLAIM_ACROSS_TENANTS. A job queue claimed with FOR UPDATE SKIP
LOCKED and ORDER BY created_at is first-in-first-out across all tenants: if
tenant A enqueues 2 million jobs, tenant B's single job waits behind all of
them. Measured: B's first job starts 0.89 s behind 40 of A's jobs, and
about 9 hours behind 2 million. The queue is a resource shared between
tenants like a pool, and ordering by age alone gives it to whoever filled
it first.

What counts: a SQL statement with FOR UPDATE SKIP LOCKED (or FOR NO KEY
UPDATE SKIP LOCKED, or FOR UPDATE OF … SKIP LOCKED; MySQL 8 has the same
syntax) whose locking SELECT has an ORDER BY made only of plain columns of
age or id (created_at, inserted_at, enqueued_at, scheduled_at, run_at, id,
…; updated and updated_at too: the time a waiting row last changed is when
it became waiting) and priority, with at least one of age or id — a
priority first and then the age is still FIFO across tenants within each
priority — on rows that carry a tenant (tenant_id, org_id,
organization_id, account_id, workspace_id, project_id, team_id,
customer_id, …). An owner column (owner_id: the account, organisation or
user, that owns the work, as gitea's jobs carry) is the tenant of rows that
carry none of those: it is then the widest party the rows are divided by;
beside a tenant column it is one of that tenant's accounts, and the tenant
column is the one named. user_id is never a tenant: a user is who acted
(who enqueued, who triggered), one of a tenant's users. The word lists are
catalogue rows (internal/catalog/sql.go). The tenant column may be seen:

  - in the statement: the claim's SELECT list, the RETURNING list, or a
    WHERE matching a list of tenants (tenant_id = ANY($1), IN (…)): FIFO
    across those tenants;
  - in the table's definition: CREATE TABLE (or ALTER TABLE … ADD COLUMN)
    in a constant string of the same package, or in a .sql file of the
    module (migrations, sqlc's schema);
  - in gorm's or xorm's model: a field whose column (gorm:"column:…", a
    quoted name in an xorm tag, or the snake case of its name) is a
    tenant column; in ent's entity: a Field… constant naming a tenant
    column.

A claim need not lock. A function that reads the waiting rows in order of
age (the same ORDER BY as above, no lock, bound to no tenant) and then
takes one of them with a compare-and-set update claims first-in-first-out
as surely: the update succeeds only if no other worker took the row first,
and the loser reads again. A compare-and-set update picks one row by its
id and requires the claim column it sets to hold its unclaimed value:
NULL, 0, the empty string or a waiting state (pending, queued, waiting, …; catalogue
rows):

	SELECT id FROM tasks WHERE claimed_by IS NULL ORDER BY created_at LIMIT 1
	UPDATE tasks SET claimed_by = $2 WHERE id = $1 AND claimed_by IS NULL

or, with xorm (gitea's CreateTaskForRunner),
e.Where("task_id=? AND status=?", 0, StatusWaiting).Asc("updated",
"id").Find(&jobs), then, for the job chosen, job.TaskID = task.ID and
e.ID(job.ID).Where(builder.Eq{"task_id": 0}).Update(job) — or a function
of the package that does that update by id under the condition it is
given (UpdateRunJob(ctx, job, builder.Eq{"task_id": 0})). The update
writes the column it tests: in its SET list, as gorm's Update("status",
…) names it, or as a field of the row the function assigns before an
update of the whole row. The write must come after the read, in the same
function, on the same table or model, and run once per read: a write in a
loop the read is not in runs for every row read — a sweep, not a claim —
and is not one.

Where the statements come from: constant strings, including constants
folded from concatenation ("SELECT … " + orderByAge + " FOR UPDATE SKIP
LOCKED"), raw-string queries and sqlc's generated query constants
(const claimJob = `-- name: ClaimJob :one …`); and chains of query builder
calls whose parts are constants: squirrel's sq.Select(…).From(…).Where(…).
OrderBy(…).Suffix("FOR UPDATE SKIP LOCKED"), and gorm's
db.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).
Where(…).Order("created_at").First(&job); xorm's sessions,
e.Where(…).And(…).Asc("updated", "id").Find(&jobs), with builder.Eq{…}
conditions, also through an application's interface over xorm whose
methods return *xorm.Session (gitea's db.Engine); goqu's
goqu.From("jobs").Where(goqu.C("status").Eq("queued")).
Order(goqu.C("created_at").Asc()).ForUpdate(exp.SkipLocked); and ent's
generated queries,
client.Job.Query().Where(job.StatusEQ("queued")).Order(job.ByCreatedAt()).
ForUpdate(sql.WithLockAction(sql.SkipLocked)), whose table, columns and
tenant field come from the entity's package (job.Table, job.FieldTenantID).
The builder methods are catalogue rows, one table per library.

Where it is reported: at the string literal of the claim, or at the builder
call that adds the lock (for a compare-and-set claim: at the ordered
read's literal or finisher, Find or First; the message names the update's
line); a constant that folds in another constant that is
a claim on its own (tag + queries.ClaimSQL) is not reported again. A claim
in a generated file (sqlc) is reported where the user's code calls the
generated function that runs it (q.ClaimJob(ctx)), in this package or
another, or the method of an interface of the generated package it
implements (sqlc's Querier): nobody edits the generated file. A fact (RunsClaim) carries the claim from the
generated package to its callers. A decorator of the store (a method
that hands the call on to the same method, with the same signature, of
what it wraps: an authorization, metrics or tracing layer) runs the claim
for its callers and is reported where it is called, not at its
forwarding call: one claim, one finding, where the work is chosen. The message names the table, the ORDER
BY columns, the tenant column and where it was seen.

Not reported:

  - a claim bound to one tenant anywhere in the statement (WHERE tenant_id
    = $1, a literal, or AND project_id = ? around the subquery): FIFO
    within one tenant is what that worker is for;
  - a claim whose FROM or WHERE uses the tenant column in any other way: a
    join on per-tenant slot rows (the hard-cap claim locking a tenant_slots
    row), a cap on a tenant's running jobs (NOT IN (SELECT tenant_id …
    HAVING count(*) >= cap));
  - a claim ordered by anything but plain age, id and priority columns:
    the fair-share claim below, ordered by a tenant's running count, or a
    column such as last_served_at;
  - a locking SELECT whose WHERE requires a running state (state =
    'running' AND lease_until < now(), with no OR beside it): a reaper
    taking back expired leases, not a claim of queued work;
  - an ordered read with no compare-and-set update after it in the
    function (a read for display: the jobs of one run ORDER BY id), an
    update whose WHERE tests a column it does not set (deleted_at IS NULL)
    or names no row by id, a compare-and-set on a row the caller names
    (no ordered read), and an update in a loop over the rows read (a
    sweep releasing every row);
  - a claim with no ORDER BY (it takes whichever row the scan meets
    first: often an old one, but the text claims no order, and reading one
    in would be a guess), a FOR UPDATE without SKIP LOCKED (one row locked by id is not
    a claim), FOR SHARE;
  - a table with no tenant column in the statement, its definition or its
    model — the claims of single-tenant queue libraries (river, neoq, gue,
    que-go, pgq) read their own tables, which have none, and are silent;
  - test files, and SQL in comments.

The fix is to choose the next job by tenant, not only by age. A fair-share
claim takes the oldest job of the tenant running the fewest jobs:

	WITH next AS (SELECT j.id FROM jobs j WHERE j.status = 'queued'
	  ORDER BY (SELECT count(*) FROM jobs r WHERE r.tenant_id = j.tenant_id AND r.status = 'running'), j.created_at
	  LIMIT 1 FOR UPDATE SKIP LOCKED)
	UPDATE jobs SET status = 'running', started_at = now() FROM next WHERE jobs.id = next.id
	RETURNING jobs.id, jobs.tenant_id;

At scale, keep a per-tenant running count in a table of its own instead of
counting job rows on every claim. The runtime's bulkhead/jobclaim package
implements this queue: fair share (fewest running first, then the tenant
served longest ago), a soft cap and a hard cap (per-tenant slot rows locked
with SKIP LOCKED), with running counts per tenant in their own table,
leases and a reaper; its package documentation says why River's claim
cannot carry these rules.

Escape policy and limits. A claim is judged where its text is written,
not where it runs: a query constant passed to a helper, stored in a
struct or returned is reported once, at its literal (or, in generated
code, at the calls of the generated function). A statement is read from
one constant: a hole the program fills in (fmt's %s, a template's
{{.Where}}) in its FROM or WHERE, other than the table's name right after
FROM, may hold a tenant condition, so the claim is not reported, nor is
one ordered by a hole (ORDER BY %s); a query put together at run time
from non-constant parts ("FROM " + table + " ORDER BY id …") is read part
by part, and a part without its FROM or ORDER BY is not a claim. A builder chain is read
from one expression; a query built over several statements (q = q.Where(…))
is not followed, and a non-constant Where or OrderBy argument makes the
chain unreadable (it may bind the tenant), so it is not reported; so does
a chain built on a call the catalogue does not know (db.Scopes(byTenant(t)),
a helper returning a scoped handle) or on a variable the function assigned
such a builder (tx := db.Where("tenant_id = ?", t)). A parameter or a
struct field holding a *gorm.DB is taken for a plain handle: one already
scoped to a tenant by its caller is not seen; so is the handle returned by
a function given only a context (gitea's db.GetEngine(ctx): the engine, or
the transaction's session the context carries). A condition variable
declared empty (jobCond := builder.NewCond()) and narrowed only inside
branches (if, switch) that do not hold its use is empty on some path: the
read is taken as unbound and the message says when (when jobCond stays
empty) — a branch that never runs is not known; a condition variable
assigned on every path makes the chain unreadable like any other. A
compare-and-set claim is read within one function: the read and the
update in two functions (a store's Next and Take), an update through a
session built over several statements in the claiming function, or a
helper of another package that applies the condition are not followed
(a helper of the same package is read: an update by id, its condition
parameter passed to Where). A read of a package-level constant is matched
in the functions that use it; so does
an ent predicate not named for a column (job.Or(…), an edge's
HasOwnerWith(…)), and an ent chain that does not start at the client's
Query() (a query from a variable or a helper). bob's locking builders and SQL Server's READPAST hint
are not read. A table's definition is found by its name
without a schema, in the package's constants and in the module's
.sql files (from the directory of go.mod down, leaving out vendor,
node_modules, testdata, hidden directories and nested modules; at most 2000
files or 16 MB). Analysis passes see only Go files: go vet hands a vet
tool the package's Go, cgo and assembly files (pass.OtherFiles,
pass.IgnoredFiles), never its //go:embed files or other .sql files, so the
module's .sql files are read from disk, and only when a claim needs its
table's definition. go vet does not know about that read: after a change
to a .sql file alone, a cached result may stand until a Go file of the
package changes. A reaper that re-queues expired leases with SKIP LOCKED
ordered by id, without naming the running state it takes back, has a
claim's shape and is reported when its table has a tenant; suppress it.

Suppress a finding with //bhlint:ignore ERR_FIFO_CLAIM_ACROSS_TENANTS
reason, on the line or in the doc comment of the enclosing function.
*/
package fairclaim
