package jobclaim_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/jobclaim"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var queues atomic.Int64

// newQueue is a queue with tables of its own on the test PostgreSQL,
// dropped at the end of the test.
func newQueue(t testing.TB, cfg jobclaim.Config) *jobclaim.Queue {
	t.Helper()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, testsvc.PostgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg.Name = fmt.Sprintf("jobclaim_%s_%d", testsvc.Suffix, queues.Add(1))
	q, err := jobclaim.New(ctx, pool, cfg)
	if err != nil {
		pool.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := q.Drop(context.Background()); err != nil {
			t.Error(err)
		}
		pool.Close()
	})
	return q
}

func enqueue(t testing.TB, q *jobclaim.Queue, tenant string, n int) {
	t.Helper()
	jobs := make([]jobclaim.NewJob, n)
	for i := range jobs {
		jobs[i] = jobclaim.NewJob{Tenant: tenant, Payload: []byte(fmt.Sprintf("%s-%d", tenant, i))}
	}
	if err := q.EnqueueMany(context.Background(), jobs); err != nil {
		t.Fatal(err)
	}
}

// claims claims n times without completing anything and returns the
// tenants in claim order ("-" for ErrEmpty).
func claims(t *testing.T, q *jobclaim.Queue, n int) ([]string, []jobclaim.Job) {
	t.Helper()
	var order []string
	var jobs []jobclaim.Job
	for range n {
		j, err := q.Claim(context.Background(), "w")
		if errors.Is(err, jobclaim.ErrEmpty) {
			order = append(order, "-")
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		order = append(order, j.Tenant)
		jobs = append(jobs, j)
	}
	return order, jobs
}

// TestClaimOrder: A enqueues 4 jobs, then B and C one each; the rules pick
// them in the orders the package documentation describes.
func TestClaimOrder(t *testing.T) {
	want := map[jobclaim.Rule]string{
		jobclaim.FIFO:      "[A A A A B C -]",
		jobclaim.SoftCap:   "[A A B C - - -]",
		jobclaim.FairShare: "[A B C A A A -]",
		jobclaim.HardCap:   "[A A B C - - -]",
	}
	for _, rule := range jobclaim.Rules {
		t.Run(rule.String(), func(t *testing.T) {
			q := newQueue(t, jobclaim.Config{Rule: rule, Cap: 2})
			enqueue(t, q, "A", 4)
			enqueue(t, q, "B", 1)
			enqueue(t, q, "C", 1)
			order, _ := claims(t, q, 7)
			if got := fmt.Sprint(order); got != want[rule] {
				t.Errorf("claim order %s, want %s", got, want[rule])
			}
		})
	}
}

// TestCapFreesOnComplete: a capped tenant's next job starts once one of its
// running jobs completes, and the counts table follows every step.
func TestCapFreesOnComplete(t *testing.T) {
	for _, rule := range []jobclaim.Rule{jobclaim.SoftCap, jobclaim.HardCap} {
		t.Run(rule.String(), func(t *testing.T) {
			ctx := context.Background()
			q := newQueue(t, jobclaim.Config{Rule: rule, Cap: 2})
			enqueue(t, q, "A", 5)
			order, jobs := claims(t, q, 3)
			if fmt.Sprint(order) != "[A A -]" {
				t.Fatalf("claims %v, want [A A -]", order)
			}
			wantCounts(t, q, "A", jobclaim.TenantCounts{Running: 2, Queued: 3})
			if err := q.Complete(ctx, jobs[0]); err != nil {
				t.Fatal(err)
			}
			wantCounts(t, q, "A", jobclaim.TenantCounts{Running: 1, Queued: 3})
			if err := q.Complete(ctx, jobs[0]); !errors.Is(err, jobclaim.ErrLost) {
				t.Errorf("completing a job twice: %v, want ErrLost", err)
			}
			if order, _ := claims(t, q, 2); fmt.Sprint(order) != "[A -]" {
				t.Errorf("after a completion: claims %v, want [A -]", order)
			}
			wantCounts(t, q, "A", jobclaim.TenantCounts{Running: 2, Queued: 2})
		})
	}
}

func wantCounts(t *testing.T, q *jobclaim.Queue, tenant string, want jobclaim.TenantCounts) {
	t.Helper()
	c, err := q.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c[tenant] != want {
		t.Errorf("tenant %s counts %+v, want %+v", tenant, c[tenant], want)
	}
}

// TestHardCapHoldsUnderConcurrentClaims: 16 workers claim at once, none
// completes: exactly Cap claims of the one tenant succeed.
func TestHardCapHoldsUnderConcurrentClaims(t *testing.T) {
	const capacity, workers = 3, 16
	q := newQueue(t, jobclaim.Config{Rule: jobclaim.HardCap, Cap: capacity})
	enqueue(t, q, "A", 50)
	var claimed atomic.Int64
	var wg sync.WaitGroup
	start := make(chan struct{})
	for w := range workers {
		wg.Go(func() {
			<-start
			for range 5 {
				_, err := q.Claim(context.Background(), fmt.Sprint("w", w))
				if err == nil {
					claimed.Add(1)
				} else if !errors.Is(err, jobclaim.ErrEmpty) {
					t.Error(err)
				}
			}
		})
	}
	close(start)
	wg.Wait()
	if n := claimed.Load(); n != capacity {
		t.Errorf("%d concurrent claims succeeded, want exactly the cap %d", n, capacity)
	}
	wantCounts(t, q, "A", jobclaim.TenantCounts{Running: capacity, Queued: 50 - capacity})
}

// TestReapRequeuesThenBuries: a job whose lease ran out goes back first in
// line with its slot and count given back; its old claim is lost; after
// MaxAttempts claims it is dead.
func TestReapRequeuesThenBuries(t *testing.T) {
	ctx := context.Background()
	q := newQueue(t, jobclaim.Config{Rule: jobclaim.HardCap, Cap: 1, Lease: time.Millisecond, MaxAttempts: 2})
	enqueue(t, q, "A", 2)
	first, err := q.Claim(ctx, "dies")
	if err != nil {
		t.Fatal(err)
	}
	r := reapOnce(t, q)
	if r != (jobclaim.Reaped{Requeued: 1}) {
		t.Fatalf("first reap %+v, want one requeued", r)
	}
	wantCounts(t, q, "A", jobclaim.TenantCounts{Running: 0, Queued: 2})
	if err := q.Complete(ctx, first); !errors.Is(err, jobclaim.ErrLost) {
		t.Errorf("the dead worker's late completion: %v, want ErrLost", err)
	}
	if err := q.Extend(ctx, first); !errors.Is(err, jobclaim.ErrLost) {
		t.Errorf("the dead worker's late lease renewal: %v, want ErrLost", err)
	}
	again, err := q.Claim(ctx, "second")
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != first.ID || again.Attempt != 2 {
		t.Errorf("after the reap: claimed job %d attempt %d, want job %d attempt 2 (first in line)", again.ID, again.Attempt, first.ID)
	}
	if err := q.Extend(ctx, again); err != nil {
		t.Errorf("renewing the live claim's lease: %v", err)
	}
	if r := reapOnce(t, q); r != (jobclaim.Reaped{Dead: 1}) {
		t.Errorf("second reap %+v, want one dead (MaxAttempts 2)", r)
	}
	wantCounts(t, q, "A", jobclaim.TenantCounts{Running: 0, Queued: 1})
	if next, err := q.Claim(ctx, "third"); err != nil || next.ID == first.ID {
		t.Errorf("after the job died: claimed %+v, %v; want the other job (the slot given back)", next, err)
	}
}

// reapOnce waits out the 1 ms lease and reaps.
func reapOnce(t *testing.T, q *jobclaim.Queue) jobclaim.Reaped {
	t.Helper()
	time.Sleep(20 * time.Millisecond)
	r, err := q.Reap(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestWorkRunsEveryJobOnce: four workers on a fair-share queue run 60 jobs
// of three tenants; one job fails once and is retried. Every job completes
// exactly once and the counts end at zero.
func TestWorkRunsEveryJobOnce(t *testing.T) {
	q := newQueue(t, jobclaim.Config{Rule: jobclaim.FairShare, PollInterval: 5 * time.Millisecond})
	for _, tenant := range []string{"A", "B", "C"} {
		enqueue(t, q, tenant, 20)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	done := map[string]int{}
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			err := q.Work(ctx, fmt.Sprint("w", w), func(_ context.Context, j jobclaim.Job) error {
				if string(j.Payload) == "B-3" && failed.CompareAndSwap(false, true) {
					return errors.New("first attempt fails")
				}
				mu.Lock()
				done[string(j.Payload)]++
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	testsvc.WaitFor(t, "60 jobs done", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(done) == 60
	})
	cancel()
	wg.Wait()
	for p, n := range done {
		if n != 1 {
			t.Errorf("job %s ran %d times", p, n)
		}
	}
	for _, tenant := range []string{"A", "B", "C"} {
		wantCounts(t, q, tenant, jobclaim.TenantCounts{})
	}
}

func TestConfigErrors(t *testing.T) {
	for _, cfg := range []jobclaim.Config{
		{Name: "Bad-Name"},
		{Name: "q", Rule: jobclaim.SoftCap},
		{Name: "q", Rule: jobclaim.HardCap, Cap: -1},
		{Name: "q", Rule: jobclaim.Rule(9)},
	} {
		if _, err := jobclaim.New(context.Background(), nil, cfg); err == nil {
			t.Errorf("New(%+v) accepted it", cfg)
		}
	}
}

// TestFairShareTakesTurns: with every tenant running nothing (each job
// completes before the next claim), fair share takes tenants in turn, the
// one served longest ago first, instead of draining the oldest tenant's
// backlog as FIFO does.
func TestFairShareTakesTurns(t *testing.T) {
	ctx := context.Background()
	q := newQueue(t, jobclaim.Config{Rule: jobclaim.FairShare})
	for _, tenant := range []string{"A", "B", "C"} {
		enqueue(t, q, tenant, 3)
	}
	var order []string
	for range 9 {
		j, err := q.Claim(ctx, "w")
		if err != nil {
			t.Fatal(err)
		}
		order = append(order, j.Tenant)
		if err := q.Complete(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	if got := fmt.Sprint(order); got != "[A B C A B C A B C]" {
		t.Errorf("claim order %s, want [A B C A B C A B C]", got)
	}
}
