package lanepgx_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanepgx"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/jackc/pgx/v5"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type (
	CardAuth struct{}
	Fraud    struct{}
	Tax      struct{}
)

func (CardAuth) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "pgx_card_auth_" + testsvc.Suffix, MaxConcurrent: 16, MaxQueued: 16, QueueTimeout: time.Second, Policy: bulkhead.PolicyThrottle}
}

func (Fraud) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "pgx_fraud_" + testsvc.Suffix, MaxConcurrent: 6, MaxQueued: 4, QueueTimeout: time.Second}
}

func (Tax) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "pgx_tax_" + testsvc.Suffix, MaxConcurrent: 3}
}

func name[L bulkhead.Lane]() string {
	s, err := bulkhead.SpecOf[L]()
	if err != nil {
		panic(err)
	}
	return s.Name
}

func env(t *testing.T) (string, *testsvc.Monitor) {
	return testsvc.NewMonitor(t, name[CardAuth](), name[Fraud](), name[Tax]())
}

func mustNew[L bulkhead.Lane](t *testing.T, dsn string, cfg lanepool.Config) *lanepgx.Pool[L] {
	t.Helper()
	p, err := lanepgx.New[L](context.Background(), dsn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Open a connection up front, outside the gate: a first dial on a
	// loaded machine can take longer than the tight acquire timeouts the
	// tests use, and those timeouts include dialing.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.Pgx().Ping(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A connection broken by a deadline keeps its slot (Pending) until
		// the server ended its session: give that a bounded moment.
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); {
			if s := p.PoolStats(); s.InUse+s.Pending == 0 {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		if s := p.PoolStats(); s.InUse != 0 || s.Pending != 0 || s.Waiting != 0 {
			t.Errorf("%s: %d connections still held, %d slots pending and %d callers waiting at the end of the test", s.Resource, s.InUse, s.Pending, s.Waiting)
			return // Close would wait for them forever
		}
		p.Close()
	})
	return p
}

func TestTaxStallDoesNotReachCardAuth(t *testing.T) {
	dsn, mon := env(t)
	card := mustNew[CardAuth](t, dsn, lanepool.Config{MaxConns: 8, MaxWaiters: 32, AcquireTimeout: 2 * time.Second})
	fraud := mustNew[Fraud](t, dsn, lanepool.Config{MaxConns: 3, MaxWaiters: 3, AcquireTimeout: time.Second})
	const taxTimeout = 150 * time.Millisecond
	tax := mustNew[Tax](t, dsn, lanepool.Config{MaxConns: 1, AcquireTimeout: taxTimeout, LeakThreshold: -1})
	cardLane, fraudLane, taxLane := bulkhead.MustExecutor[CardAuth](), bulkhead.MustExecutor[Fraud](), bulkhead.MustExecutor[Tax]()
	tr := mon.Track()

	sleepCtx, stopSleep := context.WithCancel(context.Background())
	sleeping := make(chan error, 1)
	go func() {
		sleeping <- taxLane.Do(sleepCtx, func(ctx context.Context) error {
			_, err := tax.Exec(ctx, "select pg_sleep(30)")
			return err
		})
	}()
	testsvc.WaitFor(t, "the tax connection to sleep", func() bool { return mon.SleepingSessions(name[Tax]()) == 1 })

	var served atomic.Int64
	var wg sync.WaitGroup
	var slowest atomic.Int64
	for w := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 4 {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				start := time.Now()
				var err error
				if w%4 == 3 {
					err = fraudLane.Do(ctx, func(ctx context.Context) error { return one(ctx, fraud.QueryRow(ctx, "select 1 from pg_sleep(0.005)")) })
				} else {
					err = cardLane.Do(ctx, func(ctx context.Context) error { return one(ctx, card.QueryRow(ctx, "select 1 from pg_sleep(0.005)")) })
				}
				cancel()
				if d := int64(time.Since(start)); d > slowest.Load() {
					slowest.Store(d)
				}
				if err != nil {
					t.Errorf("worker %d query %d: %v", w, i, err)
					continue
				}
				served.Add(1)
			}
		}()
	}
	start := time.Now()
	err := taxLane.Do(context.Background(), func(ctx context.Context) error {
		c, err := tax.Acquire(ctx)
		if err == nil {
			c.Release()
		}
		return err
	})
	waited := time.Since(start)
	var ae *lanepool.AcquireError
	if !errors.As(err, &ae) || ae.Reason != lanepool.ReasonWaitersFull {
		// MaxWaiters 0: the tax lane fails fast
		t.Errorf("tax acquire with MaxWaiters 0: %v", err)
	}
	wg.Wait()
	if served.Load() != 48 {
		t.Errorf("served %d of 48 card_auth/fraud queries while tax was stalled", served.Load())
	}
	t.Logf("slowest card_auth/fraud query while tax stalled: %s; failing fast took %s", time.Duration(slowest.Load()), waited)

	stopSleep()
	if err := <-sleeping; err == nil {
		t.Error("the sleeping tax query was not interrupted")
	}
	seen, polls := tr.Stop()
	for app, budget := range map[string]int{name[CardAuth](): 8, name[Fraud](): 3, name[Tax](): 1} {
		t.Logf("%s: at most %d sessions in %d polls (budget %d)", app, seen[app], polls, budget)
		if seen[app] > budget {
			t.Errorf("%s: %d sessions, over its budget of %d", app, seen[app], budget)
		}
	}
}

func one(_ context.Context, row pgx.Row) error {
	var n int
	return row.Scan(&n)
}

func TestAcquireTimeout(t *testing.T) {
	dsn, _ := env(t)
	const timeout = 120 * time.Millisecond
	tax := mustNew[Tax](t, dsn, lanepool.Config{MaxConns: 1, MaxWaiters: 1, AcquireTimeout: timeout})
	c, err := tax.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = tax.Acquire(context.Background())
	waited := time.Since(start)
	var ae *lanepool.AcquireError
	if !errors.As(err, &ae) || ae.Reason != lanepool.ReasonTimeout || !errors.Is(err, bulkhead.ErrRejected) {
		t.Errorf("got %v, want a timeout", err)
	}
	if waited < timeout || waited > timeout+5*time.Second {
		t.Errorf("failed after %s, want %s", waited, timeout)
	}
	c.Release()
	c.Release() // a second Release does nothing
	if s := tax.PoolStats(); s.InUse != 0 || s.Timeouts != 1 || s.Acquired != 1 {
		t.Errorf("stats: %+v", s)
	}
}

func holdTooLong(ctx context.Context, p *lanepgx.Pool[Fraud], release <-chan struct{}) error {
	c, err := p.Acquire(ctx)
	if err != nil {
		return err
	}
	defer c.Release()
	<-release
	return nil
}

func TestLeakAndCrossLane(t *testing.T) {
	dsn, _ := env(t)
	leaks := make(chan lanepool.Leak, 1)
	fraud := mustNew[Fraud](t, dsn, lanepool.Config{
		MaxConns: 1, AcquireTimeout: 5 * time.Second, LeakThreshold: 40 * time.Millisecond,
		OnLeak: func(l lanepool.Leak) { leaks <- l },
	})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- holdTooLong(context.Background(), fraud, release) }()
	select {
	case l := <-leaks:
		if !strings.Contains(l.Stack, "lanepgx_test.holdTooLong") || l.Lane != name[Fraud]() {
			t.Errorf("leak: %+v", l)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no leak reported")
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	err := bulkhead.MustExecutor[Tax]().Do(context.Background(), func(ctx context.Context) error {
		_, err := fraud.Exec(ctx, "select 1")
		return err
	})
	var ce *lanepool.CrossLaneError
	if !errors.As(err, &ce) || ce.Caller != name[Tax]() || !strings.Contains(err.Error(), "lanepgx.Pool[Fraud]") {
		t.Errorf("tax using the fraud pool: %v", err)
	}
}

func TestEveryPathGivesItsConnectionBack(t *testing.T) {
	dsn, _ := env(t)
	p := mustNew[Fraud](t, dsn, lanepool.Config{MaxConns: 2, AcquireTimeout: 5 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	inUse := func(what string) {
		t.Helper()
		if n := p.PoolStats().InUse; n != 0 {
			t.Errorf("after %s: %d connections in use", what, n)
		}
	}
	if _, err := p.Exec(ctx, "select 1"); err != nil {
		t.Fatal(err)
	}
	inUse("Exec")
	rows, err := p.Query(ctx, "select generate_series(1, 3)")
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil || len(got) != 3 {
		t.Fatalf("CollectRows: %v %v", got, err)
	}
	inUse("CollectRows")
	rows, err = p.Query(ctx, "select generate_series(1, 3)")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
	}
	inUse("reading every row")
	var app string
	if err := p.QueryRow(ctx, "select current_setting('application_name')").Scan(&app); err != nil || app != name[Fraud]() {
		t.Errorf("application_name %q (%v), want %q", app, err, name[Fraud]())
	}
	inUse("QueryRow.Scan")
	if err := p.QueryRow(ctx, "select 1 where false").Scan(new(int)); !errors.Is(err, pgx.ErrNoRows) {
		t.Errorf("no rows: %v", err)
	}
	inUse("QueryRow.Scan of no rows")
	tx, err := p.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	_ = tx.Rollback(ctx) // the usual deferred Rollback after Commit
	inUse("Commit")
	qctx, qcancel := context.WithTimeout(ctx, 30*time.Millisecond)
	_, err = p.Exec(qctx, "select pg_sleep(10)")
	qcancel()
	if err == nil {
		t.Error("pg_sleep(10) with a 30ms deadline succeeded")
	}
	// No caller holds the broken connection, but it keeps its slot until
	// the server ended its session.
	inUse("a query past its deadline")
	testsvc.WaitFor(t, "the broken session to end", func() bool { return p.PoolStats().Pending == 0 })
	if err := p.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	inUse("Ping")
}

func TestConfigRequiresABudget(t *testing.T) {
	_, err := lanepgx.New[Tax](context.Background(), "postgres://x@127.0.0.1/x", lanepool.Config{AcquireTimeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), "MaxConns") || !strings.Contains(err.Error(), "lanepgx.Pool[Tax]") {
		t.Errorf("no budget: %v", err)
	}
}
