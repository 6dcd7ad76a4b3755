// Package jobclaim is a job queue on PostgreSQL whose workers claim jobs
// fairly between tenants, so that one tenant's 2-million-row import does not
// make every other tenant's jobs wait behind it.
//
//	q, err := jobclaim.New(ctx, pool, jobclaim.Config{Name: "exports", Rule: jobclaim.FairShare})
//	err = q.Enqueue(ctx, "tenant-a", payload)
//	job, err := q.Claim(ctx, "worker-1")   // jobclaim.ErrEmpty when nothing may start
//	… run it …
//	err = q.Complete(ctx, job)
//
// # Claim rules
//
// Every rule takes one job with FOR UPDATE SKIP LOCKED, so workers never wait
// for each other's claims. They differ in which job:
//
//   - [FIFO]: the oldest job. A tenant that enqueues 40 jobs makes a tenant
//     that enqueues after it wait for all 40.
//   - [SoftCap]: the oldest job of a tenant running fewer than Cap jobs. The
//     count is read without a lock, so workers claiming at the same instant
//     may overshoot it; a capped tenant waits even when workers are idle.
//   - [FairShare]: the oldest job of the tenant running the fewest jobs;
//     among tenants running as few, the one whose last job started longest
//     ago (a tenant never served first), then the one waiting longest (whose
//     current wait began with the oldest job). Work-conserving: a tenant alone gets every worker; a newcomer
//     starts within about one job time, because the next worker to free up
//     takes its job. The middle tie-break matters with many tenants: with
//     100 tenants and 6 workers most tenants run nothing, and ordering those
//     by their oldest job alone would be FIFO among them, so a newcomer
//     would wait behind every job the others queued before it.
//   - [HardCap]: as SoftCap, but a claim also takes one of the tenant's Cap
//     rows in the slots table, locked with SKIP LOCKED and held by the job
//     until it completes: never more than Cap jobs of one tenant run.
//
// A tenant's running and queued counts live in their own table, one row per
// tenant, updated in the statement that claims, completes or reaps a job, so
// choosing a tenant reads about one row per tenant with queued work and
// never counts job rows. One statement chooses the best tenant and claims
// its oldest job; only when other workers hold all of that tenant's queued
// jobs does a claim read the next candidates and try them in turn.
//
// # Workers that die
//
// A claimed job carries a lease (Config.Lease). [Queue.Reap] puts jobs whose
// lease ran out back in the queue — at their old place, first in line — and
// gives back their tenant's running count and slot; after MaxAttempts claims
// a job is set aside as dead instead. A job's attempt number is part of its
// identity for [Queue.Complete] and [Queue.Extend], so a worker that wakes up
// after its job was reaped and claimed again cannot complete the new claim.
// [Queue.Work] runs a worker loop that reaps as it goes.
//
// # Why not River
//
// github.com/riverqueue/river is the well-kept Go queue on PostgreSQL, and it
// was the first choice. It cannot carry these rules. Its workers fetch jobs
// with one fixed query in its driver (JobGetAvailable: state 'available' in
// one queue, ORDER BY priority, scheduled_at, id, FOR UPDATE SKIP LOCKED),
// which is FIFO within four priorities and knows no tenant; the only way to
// change it is to implement riverdriver.Executor, which River documents as
// "API is not stable. DO NOT IMPLEMENT"; its per-partition concurrency limits
// (the closest thing to a hard cap) are in River Pro, which is not open
// source; and a queue per tenant gives each process a static worker count per
// queue — a cap that is neither fleet-wide nor work-conserving, and a poller
// per tenant. Counting a tenant's running jobs would mean counting
// river_job rows on every fetch, or wrapping its batched completer. So the
// queue here is its own three tables and a handful of statements.
package jobclaim
