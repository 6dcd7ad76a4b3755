// Command fairclaim is the fair-claim drill: six workers run 100 ms jobs
// from a jobclaim queue on the real PostgreSQL while tenant A enqueues 40
// jobs and then B and C 5 each, once per claim rule, and prints the
// chapter's table: B's first job start, A's most jobs running at once, and
// when A's 40 were done. Then the same rules with 10^5 jobs of 100 tenants
// queued, where B and C arrive after the queue has run a while.
//
// It exits 0 only on the targets (FIFO makes B wait behind A; fair share
// starts B within a few job times at both sizes; the hard cap is never
// exceeded; no job runs twice), 1 if one is missed, 2 if it could not run.
// The last line printed starts with "drill:".
//
// Run it with scripts/drills/run_fair_claim_test.sh.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/drills/drillreport"
	"github.com/bhlint/bhlint/bulkhead/jobclaim"
	"github.com/jackc/pgx/v5/pgxpool"
)

type config struct {
	short     bool
	dsn, out  string
	workers   int
	job       time.Duration
	cap       int
	scaleJobs int
	tenants   int
	warmup    time.Duration
	window    time.Duration
}

func main() {
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	log.SetPrefix("fairclaim ")
	var cfg config
	flag.BoolVar(&cfg.short, "short", false, "CI form: 10^4 queued jobs in the large run instead of 10^5")
	flag.StringVar(&cfg.dsn, "dsn", envOr("BHLINT_PG_DSN", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"), "PostgreSQL DSN")
	flag.StringVar(&cfg.out, "out", "drill-out", "directory for the report")
	flag.IntVar(&cfg.workers, "workers", 6, "workers")
	flag.DurationVar(&cfg.job, "job", 100*time.Millisecond, "how long each job runs")
	flag.IntVar(&cfg.cap, "cap", 3, "per-tenant cap of the soft-cap and hard-cap rules")
	flag.IntVar(&cfg.tenants, "tenants", 100, "tenants in the large run")
	flag.Parse()
	cfg.scaleJobs, cfg.warmup, cfg.window = 100_000, 8*time.Second, 8*time.Second
	if cfg.short {
		cfg.scaleJobs, cfg.warmup, cfg.window = 10_000, 6*time.Second, 4*time.Second
	}
	ctx := context.Background()
	rep, err := drill(ctx, cfg)
	if err != nil {
		drillreport.Fail(err)
	}
	drillreport.Finish(cfg.out, rep.text, rep.last, rep.pass)
}

func drill(ctx context.Context, cfg config) (report, error) {
	pc, err := pgxpool.ParseConfig(cfg.dsn)
	if err != nil {
		return report{}, err
	}
	pc.MaxConns = int32(cfg.workers + 4)
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return report{}, err
	}
	defer pool.Close()
	if err := pool.Ping(ctx); err != nil {
		return report{}, fmt.Errorf("PostgreSQL at %s: %w", cfg.dsn, err)
	}
	var small, large []result
	for _, rule := range jobclaim.Rules {
		r, err := chapterRun(ctx, pool, cfg, rule)
		if err != nil {
			return report{}, fmt.Errorf("%v: %w", rule, err)
		}
		small = append(small, r)
	}
	for _, rule := range jobclaim.Rules {
		r, err := scaleRun(ctx, pool, cfg, rule)
		if err != nil {
			return report{}, fmt.Errorf("%v at %d jobs: %w", rule, cfg.scaleJobs, err)
		}
		large = append(large, r)
	}
	return makeReport(cfg, small, large), nil
}

// result is what one run measured; durations count from the arrival of
// the tenant they are about (A: the start; B: B's enqueue).
type result struct {
	rule           jobclaim.Rule
	bFirst         time.Duration // 0: B never started in the run
	bigMax         int           // the big tenant's most jobs running at once
	bigDone        time.Duration // the big tenant's jobs all done (chapter run)
	bDone, allDone time.Duration
	ran, twice     int
	claimP50       time.Duration
	claimP99       time.Duration
}

func newQueue(ctx context.Context, pool *pgxpool.Pool, rule jobclaim.Rule, limit int) (*jobclaim.Queue, error) {
	q, err := jobclaim.New(ctx, pool, jobclaim.Config{
		Name: fmt.Sprintf("fairclaim_drill_%d", os.Getpid()), Rule: rule, Cap: limit, Lease: time.Minute,
	})
	if err != nil {
		return nil, err
	}
	if err := q.Drop(ctx); err != nil { // left over from an interrupted run
		return nil, err
	}
	return jobclaim.New(ctx, pool, q.Config())
}

// chapterRun: workers idle on an empty queue; A enqueues 40, then B and C 5.
func chapterRun(ctx context.Context, pool *pgxpool.Pool, cfg config, rule jobclaim.Rule) (result, error) {
	q, err := newQueue(ctx, pool, rule, cfg.cap)
	if err != nil {
		return result{}, err
	}
	defer q.Drop(context.WithoutCancel(ctx))
	rec := newRecorder()
	stop := startWorkers(ctx, q, cfg, rec)
	if err := enqueue(ctx, q, "A", 40); err != nil {
		return result{}, errors.Join(err, stop())
	}
	bAt := rec.since()
	if err := errors.Join(enqueue(ctx, q, "B", 5), enqueue(ctx, q, "C", 5)); err != nil {
		return result{}, errors.Join(err, stop())
	}
	finished := rec.waitDone(50, time.Minute)
	if err := stop(); err != nil {
		return result{}, err
	}
	if !finished {
		return result{}, fmt.Errorf("only %d of 50 jobs done in a minute", rec.ran())
	}
	r := rec.result(rule, "A", bAt)
	log.Printf("%v: B first %v, A max %d, A done %v", rule, r.bFirst, r.bigMax, r.bigDone)
	return r, nil
}

// scaleRun: scaleJobs queued by the tenants (90% by "bulk"), the workers
// run until every tenant has started a job (at most warmup), then B and C
// enqueue 5 each; the run ends when their jobs
// are done or after window.
func scaleRun(ctx context.Context, pool *pgxpool.Pool, cfg config, rule jobclaim.Rule) (result, error) {
	q, err := newQueue(ctx, pool, rule, cfg.cap)
	if err != nil {
		return result{}, err
	}
	defer q.Drop(context.WithoutCancel(ctx))
	others := cfg.tenants - 3 // with bulk, B and C
	if err := backlog(ctx, q, cfg.scaleJobs, others); err != nil {
		return result{}, err
	}
	rec := newRecorder()
	stop := startWorkers(ctx, q, cfg, rec)
	// A steady state: every tenant with queued jobs has started one (a
	// newcomer is not then competing with tenants never served), or the
	// rule does not get there within warmup.
	rec.waitServed(1+others, cfg.warmup)
	rec.resetClaims()
	bAt := rec.since()
	if err := errors.Join(enqueue(ctx, q, "B", 5), enqueue(ctx, q, "C", 5)); err != nil {
		return result{}, errors.Join(err, stop())
	}
	rec.waitTenants(map[string]int{"B": 5, "C": 5}, cfg.window)
	if err := stop(); err != nil {
		return result{}, err
	}
	r := rec.result(rule, "bulk", bAt)
	log.Printf("%v at %d jobs: B first %v, bulk max %d, claim p50 %v p99 %v", rule, cfg.scaleJobs, r.bFirst, r.bigMax, r.claimP50, r.claimP99)
	return r, nil
}

func enqueue(ctx context.Context, q *jobclaim.Queue, tenant string, n int) error {
	jobs := make([]jobclaim.NewJob, n)
	for i := range jobs {
		jobs[i] = jobclaim.NewJob{Tenant: tenant}
	}
	return q.EnqueueMany(ctx, jobs)
}

// backlog queues jobs: 9 in 10 for "bulk", every tenth for one of the
// others (small tenants) in turn, in batches of 10,000.
func backlog(ctx context.Context, q *jobclaim.Queue, jobs, others int) error {
	batch := make([]jobclaim.NewJob, 0, 10_000)
	for i := range jobs {
		tenant := "bulk"
		if i%10 == 9 {
			tenant = fmt.Sprintf("t%02d", 1+(i/10)%others)
		}
		batch = append(batch, jobclaim.NewJob{Tenant: tenant})
		if len(batch) == cap(batch) || i == jobs-1 {
			if err := q.EnqueueMany(ctx, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return nil
}

// startWorkers runs cfg.workers workers; stop ends them and returns the
// first error one met.
func startWorkers(ctx context.Context, q *jobclaim.Queue, cfg config, rec *recorder) (stop func() error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	errs := make([]error, cfg.workers)
	for w := range cfg.workers {
		wg.Go(func() { errs[w] = work(ctx, q, fmt.Sprint("worker-", w), cfg.job, rec) })
	}
	return func() error {
		cancel()
		wg.Wait()
		return errors.Join(errs...)
	}
}

// work claims, runs (sleeps for job) and completes jobs until ctx ends.
func work(ctx context.Context, q *jobclaim.Queue, name string, job time.Duration, rec *recorder) error {
	for ctx.Err() == nil {
		start := time.Now()
		j, err := q.Claim(ctx, name)
		rec.claimed(time.Since(start))
		if errors.Is(err, jobclaim.ErrEmpty) {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		rec.start(j)
		time.Sleep(job)
		rec.end(j)
		done, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		err = q.Complete(done, j)
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// recorder keeps what the workers did, per tenant.
type recorder struct {
	t0         time.Time
	mu         sync.Mutex
	running    map[string]int
	maxRunning map[string]int
	first      map[string]time.Duration
	last       map[string]time.Duration
	done       map[string]int
	runs       map[int64]int
	claims     []time.Duration
}

func newRecorder() *recorder {
	return &recorder{t0: time.Now(), running: map[string]int{}, maxRunning: map[string]int{},
		first: map[string]time.Duration{}, last: map[string]time.Duration{}, done: map[string]int{}, runs: map[int64]int{}}
}

func (r *recorder) since() time.Duration { return time.Since(r.t0) }

func (r *recorder) claimed(d time.Duration) {
	r.mu.Lock()
	r.claims = append(r.claims, d)
	r.mu.Unlock()
}

func (r *recorder) resetClaims() {
	r.mu.Lock()
	r.claims = r.claims[:0]
	r.mu.Unlock()
}

func (r *recorder) start(j jobclaim.Job) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs[j.ID]++
	if _, ok := r.first[j.Tenant]; !ok {
		r.first[j.Tenant] = r.since()
	}
	r.running[j.Tenant]++
	r.maxRunning[j.Tenant] = max(r.maxRunning[j.Tenant], r.running[j.Tenant])
}

func (r *recorder) end(j jobclaim.Job) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running[j.Tenant]--
	r.done[j.Tenant]++
	r.last[j.Tenant] = r.since()
}

func (r *recorder) ran() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, d := range r.done {
		n += d
	}
	return n
}

func (r *recorder) waitDone(n int, limit time.Duration) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if r.ran() >= n {
			return true
		}
	}
	return false
}

func (r *recorder) waitServed(tenants int, limit time.Duration) {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		r.mu.Lock()
		n := len(r.first)
		r.mu.Unlock()
		if n >= tenants {
			return
		}
	}
}

func (r *recorder) waitTenants(want map[string]int, limit time.Duration) {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		r.mu.Lock()
		all := true
		for t, n := range want {
			all = all && r.done[t] >= n
		}
		r.mu.Unlock()
		if all {
			return
		}
	}
}

func (r *recorder) result(rule jobclaim.Rule, big string, bAt time.Duration) result {
	r.mu.Lock()
	defer r.mu.Unlock()
	res := result{rule: rule, bigMax: r.maxRunning[big], bigDone: r.last[big]}
	if f, ok := r.first["B"]; ok {
		res.bFirst = max(f-bAt, time.Microsecond)
	}
	if r.done["B"] == 5 {
		res.bDone = r.last["B"] - bAt
	}
	for _, d := range r.last {
		res.allDone = max(res.allDone, d)
	}
	for _, n := range r.runs {
		res.ran++
		if n > 1 {
			res.twice++
		}
	}
	claims := slices.Clone(r.claims)
	slices.Sort(claims)
	if len(claims) > 0 {
		res.claimP50 = claims[len(claims)/2]
		res.claimP99 = claims[len(claims)*99/100]
	}
	return res
}

func envOr(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

// seconds formats d as the table does; 0 is "not in the run".
func seconds(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

func millis(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000) }

func pad(s string, n int) string { return s + strings.Repeat(" ", max(0, n-len(s))) }
