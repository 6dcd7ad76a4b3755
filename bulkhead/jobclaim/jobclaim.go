package jobclaim

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Rule is how a worker chooses the next job.
type Rule int

// The claim rules; see the package documentation.
const (
	FIFO Rule = iota
	SoftCap
	FairShare
	HardCap
)

var ruleNames = [...]string{"fifo", "soft-cap", "fair-share", "hard-cap"}

func (r Rule) String() string {
	if r < 0 || int(r) >= len(ruleNames) {
		return fmt.Sprintf("Rule(%d)", int(r))
	}
	return ruleNames[r]
}

// Rules is every rule, in the order of the package documentation.
var Rules = []Rule{FIFO, SoftCap, FairShare, HardCap}

// Config configures a queue.
type Config struct {
	// Name prefixes the queue's tables: NAME_jobs, NAME_tenants and
	// NAME_slots. Lower-case letters, digits and '_'; required.
	Name string
	Rule Rule
	// Cap is the most jobs of one tenant that may run at once under SoftCap
	// and HardCap (required for them; ignored by the others). HardCap makes
	// a tenant's Cap slot rows when the tenant first enqueues (or first
	// enqueues through a process with a larger Cap); lowering Cap later
	// takes deleting the surplus rows of NAME_slots.
	Cap int
	// Lease is how long a claimed job is its worker's before Reap gives it
	// to another (default 30s). A worker that needs longer calls Extend.
	Lease time.Duration
	// MaxAttempts is how many claims a job gets before Reap or Release set it
	// aside as dead (default 5).
	MaxAttempts int
	// Candidates is how many tenants one claim tries before it reports
	// ErrEmpty (default 8): more than one, because other workers may hold
	// the first candidate's jobs.
	Candidates int
	// PollInterval is how long Work sleeps when no job may start (default 50ms).
	PollInterval time.Duration
}

// DB is what the queue runs its statements on: a *pgxpool.Pool, a *pgx.Conn
// or a pgx.Tx (to enqueue in the caller's transaction).
type DB interface {
	Begin(ctx context.Context) (pgx.Tx, error)
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Job is a claimed job. ID and Attempt together name the claim.
type Job struct {
	ID         int64
	Tenant     string
	Payload    []byte
	Attempt    int
	EnqueuedAt time.Time
}

// NewJob is one job to enqueue.
type NewJob struct {
	Tenant  string
	Payload []byte
}

// Errors.
var (
	// ErrEmpty: no job may start now (none queued, or every tenant with
	// queued jobs is at its cap, or other workers hold them).
	ErrEmpty = errors.New("jobclaim: no job may start")
	// ErrLost: the claim is no longer the worker's (its lease ran out and
	// the job was reaped, or it was completed already).
	ErrLost = errors.New("jobclaim: the job's claim was lost")
)

// Queue is one job queue on PostgreSQL.
type Queue struct {
	db    DB
	cfg   Config
	sql   statements
	slots sync.Map // HardCap: tenants whose slot rows this process has made
}

var nameRE = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,40}$`)

// New makes the queue's tables if they are missing and returns the queue.
func New(ctx context.Context, db DB, cfg Config) (*Queue, error) {
	if !nameRE.MatchString(cfg.Name) {
		return nil, fmt.Errorf("jobclaim: Name %q: want lower-case letters, digits and '_', at most 41, not starting with a digit", cfg.Name)
	}
	if cfg.Rule < FIFO || cfg.Rule > HardCap {
		return nil, fmt.Errorf("jobclaim: queue %s: unknown %v", cfg.Name, cfg.Rule)
	}
	if (cfg.Rule == SoftCap || cfg.Rule == HardCap) && cfg.Cap < 1 {
		return nil, fmt.Errorf("jobclaim: queue %s: rule %v needs Cap >= 1, got %d", cfg.Name, cfg.Rule, cfg.Cap)
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 30 * time.Second
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 5
	}
	if cfg.Candidates <= 0 {
		cfg.Candidates = 8
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 50 * time.Millisecond
	}
	q := &Queue{db: db, cfg: cfg, sql: newStatements(cfg.Name)}
	if _, err := db.Exec(ctx, q.sql.schema); err != nil {
		return nil, fmt.Errorf("jobclaim: queue %s: making its tables: %w", cfg.Name, err)
	}
	return q, nil
}

// Config is the queue's configuration, with defaults filled in.
func (q *Queue) Config() Config { return q.cfg }

// Enqueue adds one job for tenant.
func (q *Queue) Enqueue(ctx context.Context, tenant string, payload []byte) error {
	return q.EnqueueMany(ctx, []NewJob{{Tenant: tenant, Payload: payload}})
}

// EnqueueMany adds jobs in one statement, in their order.
func (q *Queue) EnqueueMany(ctx context.Context, jobs []NewJob) error {
	if len(jobs) == 0 {
		return nil
	}
	tenants := make([]string, len(jobs))
	payloads := make([][]byte, len(jobs))
	for i, j := range jobs {
		if j.Tenant == "" {
			return fmt.Errorf("jobclaim: queue %s: job %d has no tenant", q.cfg.Name, i)
		}
		tenants[i], payloads[i] = j.Tenant, j.Payload
	}
	if err := q.ensureSlots(ctx, tenants); err != nil {
		return err
	}
	if _, err := q.db.Exec(ctx, q.sql.enqueue, tenants, payloads); err != nil {
		return fmt.Errorf("jobclaim: queue %s: enqueue: %w", q.cfg.Name, err)
	}
	return nil
}

// ensureSlots makes the HardCap slot rows of tenants new to this process.
func (q *Queue) ensureSlots(ctx context.Context, tenants []string) error {
	if q.cfg.Rule != HardCap {
		return nil
	}
	var fresh []string
	for _, t := range tenants {
		if _, seen := q.slots.Load(t); !seen {
			fresh = append(fresh, t)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	if _, err := q.db.Exec(ctx, q.sql.slots, fresh, q.cfg.Cap); err != nil {
		return fmt.Errorf("jobclaim: queue %s: making tenant slots: %w", q.cfg.Name, err)
	}
	for _, t := range fresh {
		q.slots.Store(t, struct{}{})
	}
	return nil
}

// Claim takes the next job under the queue's rule for worker, or returns
// ErrEmpty.
func (q *Queue) Claim(ctx context.Context, worker string) (Job, error) {
	lease := q.cfg.Lease.Seconds()
	var first, each string
	args := []any{worker, lease}
	switch q.cfg.Rule {
	case FIFO:
		return q.claimOne(ctx, q.sql.claimFIFO, args...)
	case FairShare:
		first, each = q.sql.claimFair, q.sql.claimTenant
	case SoftCap:
		first, each = q.sql.claimCapped, q.sql.claimTenant
		args = append(args, q.cfg.Cap)
	case HardCap:
		first, each = q.sql.claimCappedSlot, q.sql.claimSlot
		args = append(args, q.cfg.Cap)
	}
	// Usually the best tenant has a job no other worker holds: one round trip.
	job, err := q.claimOne(ctx, first, args...)
	if !errors.Is(err, ErrEmpty) {
		return job, err
	}
	tenants, err := q.candidates(ctx)
	if err != nil {
		return Job{}, err
	}
	for _, t := range tenants {
		job, err := q.claimOne(ctx, each, worker, lease, t)
		if !errors.Is(err, ErrEmpty) {
			return job, err
		}
	}
	return Job{}, ErrEmpty
}

// candidates are the tenants a claim tries, best first.
func (q *Queue) candidates(ctx context.Context) ([]string, error) {
	var rows pgx.Rows
	var err error
	if q.cfg.Rule == FairShare {
		rows, err = q.db.Query(ctx, q.sql.fairCandidates, q.cfg.Candidates)
	} else {
		rows, err = q.db.Query(ctx, q.sql.cappedCandidates, q.cfg.Candidates, q.cfg.Cap)
	}
	if err != nil {
		return nil, fmt.Errorf("jobclaim: queue %s: choosing a tenant: %w", q.cfg.Name, err)
	}
	tenants, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("jobclaim: queue %s: choosing a tenant: %w", q.cfg.Name, err)
	}
	return tenants, nil
}

func (q *Queue) claimOne(ctx context.Context, sql string, args ...any) (Job, error) {
	var j Job
	err := q.db.QueryRow(ctx, sql, args...).Scan(&j.ID, &j.Tenant, &j.Payload, &j.Attempt, &j.EnqueuedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return Job{}, ErrEmpty
	}
	if err != nil {
		return Job{}, fmt.Errorf("jobclaim: queue %s: claim: %w", q.cfg.Name, err)
	}
	return j, nil
}

// Complete removes a finished job and gives its tenant's running count (and
// slot) back. ErrLost if the claim is no longer the caller's.
func (q *Queue) Complete(ctx context.Context, job Job) error {
	return q.finish(ctx, q.sql.complete, "complete", job)
}

// Extend renews the job's lease for another Config.Lease. A claim whose
// lease ran out is still the worker's until Reap takes it; after that,
// ErrLost.
func (q *Queue) Extend(ctx context.Context, job Job) error {
	return q.finish(ctx, q.sql.extend, "extend", job, q.cfg.Lease.Seconds())
}

// Release puts a claimed job back in the queue at its old place (or sets it
// aside as dead after MaxAttempts claims), as Reap does for expired leases.
func (q *Queue) Release(ctx context.Context, job Job) error {
	return q.finish(ctx, q.sql.release, "release", job, q.cfg.MaxAttempts)
}

func (q *Queue) finish(ctx context.Context, sql, what string, job Job, extra ...any) error {
	var n int
	if err := q.db.QueryRow(ctx, sql, append([]any{job.ID, job.Attempt}, extra...)...).Scan(&n); err != nil {
		return fmt.Errorf("jobclaim: queue %s: %s job %d: %w", q.cfg.Name, what, job.ID, err)
	}
	if n == 0 {
		return fmt.Errorf("%w: queue %s, job %d attempt %d", ErrLost, q.cfg.Name, job.ID, job.Attempt)
	}
	return nil
}

// Reaped is what one Reap did.
type Reaped struct {
	Requeued, Dead int
}

// Reap puts the jobs whose lease ran out back in the queue, at most 1,000 a
// call, and gives back their tenants' running counts and slots.
func (q *Queue) Reap(ctx context.Context) (Reaped, error) {
	var r Reaped
	err := pgx.BeginFunc(ctx, q.db, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, q.sql.lockExpired); err != nil {
			return err
		}
		return tx.QueryRow(ctx, q.sql.reap, q.cfg.MaxAttempts).Scan(&r.Requeued, &r.Dead)
	})
	if err != nil {
		return Reaped{}, fmt.Errorf("jobclaim: queue %s: reap: %w", q.cfg.Name, err)
	}
	return r, nil
}

// TenantCounts is one tenant's row of the counts table.
type TenantCounts struct {
	Running, Queued int
}

// Counts reads the counts table.
func (q *Queue) Counts(ctx context.Context) (map[string]TenantCounts, error) {
	rows, err := q.db.Query(ctx, q.sql.counts)
	if err != nil {
		return nil, fmt.Errorf("jobclaim: queue %s: counts: %w", q.cfg.Name, err)
	}
	defer rows.Close()
	out := map[string]TenantCounts{}
	for rows.Next() {
		var t string
		var c TenantCounts
		if err := rows.Scan(&t, &c.Running, &c.Queued); err != nil {
			return nil, err
		}
		out[t] = c
	}
	return out, rows.Err()
}

// Work claims and runs jobs as worker until ctx ends. A job whose run
// returns an error is released (retried later, or dead after MaxAttempts);
// one that returns nil is completed. When no job may start it reaps expired
// leases (at most every Lease/4) and sleeps PollInterval. It returns nil
// when ctx ends, or the first database error.
func (q *Queue) Work(ctx context.Context, worker string, run func(context.Context, Job) error) error {
	var lastReap time.Time
	for ctx.Err() == nil {
		job, err := q.Claim(ctx, worker)
		switch {
		case errors.Is(err, ErrEmpty):
			if time.Since(lastReap) >= q.cfg.Lease/4 {
				lastReap = time.Now()
				if _, err := q.Reap(ctx); err != nil && ctx.Err() == nil {
					return err
				}
			}
			sleep(ctx, q.cfg.PollInterval)
			continue
		case err != nil:
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if err := q.runOne(ctx, job, run); err != nil {
			return err
		}
	}
	return nil
}

// runOne runs a claimed job and records its end even when ctx ended while
// it ran: a finished job is completed, not left for the reaper.
func (q *Queue) runOne(ctx context.Context, job Job, run func(context.Context, Job) error) error {
	runErr := run(ctx, job)
	done, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var err error
	if runErr != nil {
		err = q.Release(done, job)
	} else {
		err = q.Complete(done, job)
	}
	if errors.Is(err, ErrLost) {
		return nil // reaped while it ran: its next claim owns it
	}
	return err
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// Drop removes the queue's tables (tests and drills).
func (q *Queue) Drop(ctx context.Context) error {
	_, err := q.db.Exec(ctx, q.sql.drop)
	return err
}
