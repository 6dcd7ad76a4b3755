package jobclaim

import "strings"

// statements are the queue's SQL with its table names filled in. Every
// statement that changes a job's state changes its tenant's counts in the
// same statement, so the counts table never disagrees with the jobs table
// after a commit.
type statements struct {
	schema, drop, enqueue, slots, counts    string
	claimFIFO, claimTenant, claimSlot       string
	fairCandidates, cappedCandidates        string
	claimFair, claimCapped, claimCappedSlot string // the first candidate, chosen and claimed in one statement
	complete, extend, release, reap         string
	lockExpired                             string
}

// Job states in NAME_jobs.state.
const (
	stateQueued  = "0"
	stateRunning = "1"
	stateDead    = "2"
)

func newStatements(name string) statements {
	r := strings.NewReplacer("JOBS", name+"_jobs", "TENANTS", name+"_tenants", "SLOTS", name+"_slots",
		"QUEUED", stateQueued, "RUNNING", stateRunning, "DEAD", stateDead)
	s := statements{
		schema: `
create table if not exists JOBS (
	id bigserial primary key,
	tenant text not null,
	payload bytea,
	state smallint not null default QUEUED,
	attempt int not null default 0,
	enqueued_at timestamptz not null default now(),
	claimed_by text,
	lease_until timestamptz,
	slot int
);
create index if not exists JOBS_queued on JOBS (tenant, id) where state = QUEUED;
create index if not exists JOBS_fifo on JOBS (id) where state = QUEUED;
create index if not exists JOBS_leases on JOBS (lease_until) where state = RUNNING;
create table if not exists TENANTS (
	tenant text primary key,
	running int not null default 0,
	queued int not null default 0,
	last_claim timestamptz,
	wait_head bigint
);
create table if not exists SLOTS (
	tenant text not null,
	slot int not null,
	job bigint,
	primary key (tenant, slot)
);`,
		drop: `drop table if exists JOBS, TENANTS, SLOTS`,
		enqueue: `
with j as (
	insert into JOBS (tenant, payload)
	select tenant, payload from unnest($1::text[], $2::bytea[]) with ordinality as n(tenant, payload, i) order by i
	returning id, tenant
)
insert into TENANTS as t (tenant, queued, wait_head)
select tenant, count(*), min(id) from j group by tenant order by tenant -- rows locked in one order: no deadlock between enqueues
on conflict (tenant) do update set queued = t.queued + excluded.queued,
	wait_head = case when t.queued > 0 then t.wait_head else excluded.wait_head end`,
		slots: `
insert into SLOTS (tenant, slot)
select t, g from unnest($1::text[]) t, generate_series(1, $2::int) g
on conflict do nothing`,
		counts: `select tenant, running, queued from TENANTS`,
		complete: `
with d as (delete from JOBS where id = $1 and attempt = $2 and state = RUNNING returning tenant, slot),
s as (update SLOTS x set job = null from d where x.tenant = d.tenant and x.slot = d.slot),
t as (update TENANTS x set running = x.running - 1 from d where x.tenant = d.tenant)
select count(*) from d`,
		extend: `
with u as (
	update JOBS set lease_until = now() + make_interval(secs => $3)
	where id = $1 and attempt = $2 and state = RUNNING
	returning 1
)
select count(*) from u`,
	}
	s.claimFIFO = claim("", `select id, null::int as slot from JOBS where state = QUEUED order by id limit 1 for update skip locked`, "")
	s.claimTenant = claimOf("$3", "")
	s.claimSlot = slotClaimOf("$3", "")
	// Fair share needs no probe of the jobs: among tenants running as few
	// and served as long ago, the one waiting longest (wait_head: the first
	// job of its current wait) goes first. Only tenants never served tie on
	// last_claim, and for them wait_head is their oldest job.
	fair := `select tenant from TENANTS where queued > 0 order by running, last_claim nulls first, wait_head limit LIMIT`
	capped := candidates("h.id", "and r.running < CAP")
	s.fairCandidates = strings.Replace(fair, "LIMIT", "$1", 1)
	s.cappedCandidates = strings.NewReplacer("LIMIT", "$1", "CAP", "$2").Replace(capped)
	first := "(select tenant from c)"
	// Workers claiming at the same instant would all choose the same best
	// tenant and queue on its counts row; under fair share and the hard cap
	// each locks the row it chooses and the others skip to the next tenant.
	// The soft cap stays without the lock: that is what makes it soft.
	s.claimFair = claimOf(first, "c as ("+strings.Replace(fair, "LIMIT", "1", 1)+" for update skip locked),")
	firstCapped := strings.NewReplacer("LIMIT", "1", "CAP", "$3").Replace(capped)
	s.claimCapped = claimOf(first, "c as ("+firstCapped+"),")
	s.claimCappedSlot = slotClaimOf(first, "c as ("+firstCapped+" for update of r skip locked),")
	s.release = requeue(`select id, slot from JOBS where id = $1 and attempt = $2 and state = RUNNING for update`, "$3") +
		"\nselect count(*) from r"
	// Reap locks the counts rows it will change first, in tenant order, as
	// enqueues do; its update would otherwise take them in any order.
	s.lockExpired = `
select tenant from TENANTS where tenant in (select tenant from JOBS where state = RUNNING and lease_until < now())
order by tenant for update`
	s.reap = requeue(`select id, slot from JOBS where state = RUNNING and lease_until < now() order by id limit 1000 for update skip locked`, "$1") +
		"\nselect count(*) filter (where state = QUEUED), count(*) filter (where state = DEAD) from r"
	for _, p := range []*string{&s.schema, &s.drop, &s.enqueue, &s.slots, &s.counts, &s.claimFIFO, &s.claimTenant, &s.claimSlot,
		&s.fairCandidates, &s.cappedCandidates, &s.claimFair, &s.claimCapped, &s.claimCappedSlot,
		&s.complete, &s.extend, &s.release, &s.reap, &s.lockExpired} {
		*p = r.Replace(*p)
	}
	return s
}

// candidates chooses tenants with queued jobs by their oldest: one index
// probe per tenant, never a count of job rows. LIMIT and CAP are filled in
// by the caller.
func candidates(order, filter string) string {
	return `
select r.tenant from TENANTS r
cross join lateral (select id from JOBS where tenant = r.tenant and state = QUEUED order by id limit 1) h
where r.queued > 0 ` + filter + `
order by ` + order + `
limit LIMIT`
}

// claimOf claims the oldest job of tenant (a parameter or a subquery);
// before are common table expressions it may use.
func claimOf(tenant, before string) string {
	return claim(before, `select id, null::int as slot from JOBS where tenant = `+tenant+` and state = QUEUED order by id limit 1 for update skip locked`, "")
}

// slotClaimOf is claimOf under HardCap: a free slot row of the tenant,
// locked and skipped if another claim holds it, then a job; the slot row is
// the authority, so the tenant never runs more than its slots.
func slotClaimOf(tenant, before string) string {
	return claim(
		before+`s as (select slot from SLOTS where tenant = `+tenant+` and job is null order by slot limit 1 for update skip locked),`,
		`select id, (select slot from s) as slot from JOBS where tenant = `+tenant+` and state = QUEUED and exists (select 1 from s) order by id limit 1 for update skip locked`,
		`, s2 as (update SLOTS x set job = u.id from u where x.tenant = u.tenant and x.slot = u.slot)`)
}

// claim is the statement that marks the job pick selects as running and
// counts it for its tenant: $1 the worker, $2 the lease in seconds; before
// and after are more common table expressions.
func claim(before, pick, after string) string {
	return `
with ` + before + `
j as (` + pick + `),
u as (
	update JOBS x set state = RUNNING, attempt = x.attempt + 1, claimed_by = $1,
		lease_until = now() + make_interval(secs => $2), slot = j.slot
	from j where x.id = j.id
	returning x.id, x.tenant, x.payload, x.attempt, x.enqueued_at, x.slot
),
t as (
	update TENANTS x set running = x.running + 1, queued = x.queued - 1, last_claim = clock_timestamp()
	from u where x.tenant = u.tenant
)` + after + `
select id, tenant, payload, attempt, enqueued_at from u`
}

// requeue puts the running jobs pick selects back in the queue (dead once
// their attempts reached maxAttempts), frees their slots and moves them
// from running to queued in their tenants' counts.
func requeue(pick, maxAttempts string) string {
	return `
with e as (` + pick + `),
r as (
	update JOBS x set state = case when x.attempt >= ` + maxAttempts + ` then DEAD else QUEUED end,
		claimed_by = null, lease_until = null, slot = null
	from e where x.id = e.id
	returning x.id, x.tenant, x.state, e.slot
),
s as (update SLOTS x set job = null from r where x.tenant = r.tenant and x.slot = r.slot),
g as (
	select tenant, count(*) as n, count(*) filter (where state = QUEUED) as q, min(id) filter (where state = QUEUED) as head
	from r group by tenant
),
t as (
	update TENANTS x set running = x.running - g.n, queued = x.queued + g.q,
		wait_head = case when x.queued > 0 then x.wait_head else g.head end
	from g where x.tenant = g.tenant
)`
}
