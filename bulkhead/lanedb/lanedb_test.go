package lanedb_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanedb"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// TestTaxStallDoesNotReachCardAuth is the incident's scenario: every tax
// connection is held by pg_sleep, card_auth keeps answering within its
// deadline, tax never has more sessions than its budget, and a tax acquire
// fails after the acquire timeout.
func TestTaxStallDoesNotReachCardAuth(t *testing.T) {
	dsn, mon := env(t)
	card := mustOpen[CardAuth](t, dsn, lanepool.Config{MaxConns: 8, MaxWaiters: 32, AcquireTimeout: 2 * time.Second})
	fraud := mustOpen[Fraud](t, dsn, lanepool.Config{MaxConns: 3, MaxWaiters: 3, AcquireTimeout: time.Second})
	const taxTimeout = 150 * time.Millisecond
	tax := mustOpen[Tax](t, dsn, lanepool.Config{MaxConns: 1, MaxWaiters: 1, AcquireTimeout: taxTimeout, LeakThreshold: -1})
	cardLane := bulkhead.MustExecutor[CardAuth]()
	fraudLane := bulkhead.MustExecutor[Fraud]()
	taxLane := bulkhead.MustExecutor[Tax]()

	// Poll pg_stat_activity for the whole test.
	var maxSeen sync.Map
	stopMon := make(chan struct{})
	monDone := make(chan struct{})
	var polls atomic.Int64
	go func() {
		defer close(monDone)
		for {
			n, err := mon.Sessions(context.Background())
			if err == nil {
				polls.Add(1)
				for app, c := range n {
					for {
						old, _ := maxSeen.LoadOrStore(app, c)
						if old.(int) >= c || maxSeen.CompareAndSwap(app, old, c) {
							break
						}
					}
				}
			}
			select {
			case <-stopMon:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()

	// The tax API is down: its one connection sleeps in pg_sleep.
	sleepCtx, stopSleep := context.WithCancel(context.Background())
	sleeping := make(chan error, 1)
	go func() {
		sleeping <- taxLane.Do(sleepCtx, func(ctx context.Context) error {
			_, err := tax.ExecContext(ctx, "select pg_sleep(30)")
			return err
		})
	}()
	testsvc.WaitFor(t, "the tax connection to sleep", func() bool {
		return mon.SleepingSessions(laneName[Tax]()) == 1
	})

	// A tax acquire waits the acquire timeout, then fails; a second waiter
	// beyond MaxWaiters fails at once.
	var wg sync.WaitGroup
	wg.Add(1)
	var waitedErr error
	var waited time.Duration
	go func() {
		defer wg.Done()
		waitedErr = taxLane.Do(context.Background(), func(ctx context.Context) error {
			start := time.Now()
			c, err := tax.Conn(ctx)
			waited = time.Since(start)
			if err == nil {
				c.Close()
			}
			return err
		})
	}()
	testsvc.WaitFor(t, "a tax caller to wait", func() bool { return tax.PoolStats().Waiting == 1 })
	err := taxLane.Do(context.Background(), func(ctx context.Context) error {
		_, err := tax.Conn(ctx)
		return err
	})
	var ae *lanepool.AcquireError
	if !errors.As(err, &ae) || ae.Reason != lanepool.ReasonWaitersFull || !errors.Is(err, bulkhead.ErrRejected) {
		t.Errorf("second tax waiter: got %v, want an AcquireError with ReasonWaitersFull", err)
	}

	// Meanwhile card_auth and fraud work, each query within its deadline.
	var served, failed atomic.Int64
	var qwg sync.WaitGroup
	for w := range 12 { // 9 card_auth callers, 3 fraud callers, 4 queries each
		qwg.Add(1)
		go func() {
			defer qwg.Done()
			lane, db := bulkhead.Runner(cardLane), queryer(card)
			if w%4 == 3 {
				lane, db = fraudLane, queryer(fraud)
			}
			for i := range 4 {
				ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				err := lane.Do(ctx, func(ctx context.Context) error { return db(ctx) })
				cancel()
				if err != nil {
					failed.Add(1)
					t.Errorf("%s query %d: %v", lane.Spec().Name, i, err)
					continue
				}
				served.Add(1)
			}
		}()
	}
	qwg.Wait()
	wg.Wait()
	if !errors.As(waitedErr, &ae) || ae.Reason != lanepool.ReasonTimeout {
		t.Errorf("tax acquire: got %v, want an AcquireError with ReasonTimeout", waitedErr)
	} else if waited < taxTimeout || waited > taxTimeout+5*time.Second {
		t.Errorf("tax acquire failed after %s; want the acquire timeout, %s", waited, taxTimeout)
	} else if !strings.Contains(waitedErr.Error(), "acquire timeout") {
		t.Errorf("the error does not say what happened: %v", waitedErr)
	}
	if served.Load() != 48 {
		t.Errorf("served %d of 48 card_auth/fraud queries while tax was stalled", served.Load())
	}

	stopSleep()
	if err := <-sleeping; err == nil {
		t.Error("the sleeping tax query was not interrupted")
	}
	for polls.Load() < 3 {
		time.Sleep(5 * time.Millisecond)
	}
	close(stopMon)
	<-monDone
	for app, budget := range map[string]int{laneName[CardAuth](): 8, laneName[Fraud](): 3, laneName[Tax](): 1} {
		v, _ := maxSeen.Load(app)
		n, _ := v.(int)
		t.Logf("%s: at most %d sessions seen in %d polls of pg_stat_activity (budget %d)", app, n, polls.Load(), budget)
		if n > budget {
			t.Errorf("%s: %d sessions in pg_stat_activity, over its budget of %d", app, n, budget)
		}
	}
	if v, _ := maxSeen.Load(laneName[Tax]()); v != 1 {
		t.Errorf("the monitor never saw the sleeping tax session")
	}
	if s := tax.PoolStats(); s.Timeouts != 1 || s.Failed != 2 {
		t.Errorf("tax stats: %+v; want 1 timeout and 2 failures", s)
	}
}

func queryer[L bulkhead.Lane](db *lanedb.DB[L]) func(context.Context) error {
	return func(ctx context.Context) error {
		var n int
		if err := db.QueryRowContext(ctx, "select 1 from pg_sleep(0.005)").Scan(&n); err != nil {
			return err
		}
		if n != 1 {
			return errf("got %d", n)
		}
		return nil
	}
}

// holdTooLong is the code the leak report must point at.
func holdTooLong(ctx context.Context, db *lanedb.DB[Fraud], release <-chan struct{}) error {
	c, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	<-release
	return c.Close()
}

func TestLeakReportedWithAcquiringStack(t *testing.T) {
	dsn, _ := env(t)
	leaks := make(chan lanepool.Leak, 1)
	db := mustOpen[Fraud](t, dsn, lanepool.Config{
		MaxConns: 1, AcquireTimeout: 5 * time.Second, LeakThreshold: 50 * time.Millisecond,
		OnLeak: func(l lanepool.Leak) { leaks <- l },
	})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- holdTooLong(context.Background(), db, release) }()
	select {
	case l := <-leaks:
		if l.Lane != laneName[Fraud]() || l.Held < 50*time.Millisecond || !strings.Contains(l.Stack, "lanedb_test.holdTooLong") {
			t.Errorf("leak report: %+v; want lane %s, held ≥ 50ms, stack naming holdTooLong", l, laneName[Fraud]())
		}
		if strings.Contains(l.Stack, "internal/gate") {
			t.Errorf("the stack starts inside the pool:\n%s", l.Stack)
		}
		t.Logf("leak report: held %s, acquired at:\n%s", l.Held, l.Stack)
	case <-time.After(20 * time.Second):
		t.Fatal("no leak reported")
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if s := db.PoolStats(); s.Leaks != 1 {
		t.Errorf("stats count %d leaks, want 1", s.Leaks)
	}

	// A connection given back in time is not reported.
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	time.Sleep(100 * time.Millisecond)
	select {
	case l := <-leaks:
		t.Errorf("a connection given back at once was reported: %+v", l)
	default:
	}
}

func TestDefaultLeakReportGoesToLogger(t *testing.T) {
	dsn, _ := env(t)
	var buf testsvc.SyncBuffer
	db := mustOpen[Fraud](t, dsn, lanepool.Config{
		MaxConns: 1, AcquireTimeout: 5 * time.Second, LeakThreshold: 20 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&buf, nil)),
	})
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	testsvc.WaitFor(t, "the leak report", func() bool { return strings.Contains(buf.String(), "leak threshold") })
	c.Close()
	out := buf.String()
	if !strings.Contains(out, "leak threshold") || !strings.Contains(out, "TestDefaultLeakReportGoesToLogger") {
		t.Errorf("log does not report the leak with its stack:\n%s", out)
	}
}

func TestCrossLaneGuard(t *testing.T) {
	dsn, _ := env(t)
	tax := mustOpen[Tax](t, dsn, lanepool.Config{MaxConns: 1, AcquireTimeout: time.Second})
	cardLane := bulkhead.MustExecutor[CardAuth]()
	taxLane := bulkhead.MustExecutor[Tax]()

	err := cardLane.Do(context.Background(), func(ctx context.Context) error {
		_, err := tax.ExecContext(ctx, "select 1")
		return err
	})
	var ce *lanepool.CrossLaneError
	if !errors.As(err, &ce) || !errors.Is(err, lanepool.ErrCrossLane) || ce.Owner != laneName[Tax]() || ce.Caller != laneName[CardAuth]() {
		t.Fatalf("card_auth using the tax pool: got %v, want a CrossLaneError", err)
	}
	for _, want := range []string{"ERR_SHARED_FAILURE_DOMAIN_DETECTED", "lanedb.DB[Tax]", laneName[CardAuth](), laneName[Tax]()} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// Every entry point is guarded.
	_ = cardLane.Do(context.Background(), func(ctx context.Context) error {
		if _, err := tax.Conn(ctx); !errors.Is(err, lanepool.ErrCrossLane) {
			t.Errorf("Conn: %v", err)
		}
		if _, err := tax.QueryContext(ctx, "select 1"); !errors.Is(err, lanepool.ErrCrossLane) {
			t.Errorf("QueryContext: %v", err)
		}
		if err := tax.QueryRowContext(ctx, "select 1").Scan(new(int)); !errors.Is(err, lanepool.ErrCrossLane) {
			t.Errorf("QueryRowContext: %v", err)
		}
		if _, err := tax.BeginTx(ctx, nil); !errors.Is(err, lanepool.ErrCrossLane) {
			t.Errorf("BeginTx: %v", err)
		}
		// Work of card_auth that goes through the tax executor runs in tax.
		return taxLane.Do(ctx, func(ctx context.Context) error {
			_, err := tax.ExecContext(ctx, "select 1")
			return err
		})
	})
	// Work of the pool's own lane, and work outside every lane, passes.
	if err := taxLane.Do(context.Background(), func(ctx context.Context) error { return tax.PingContext(ctx) }); err != nil {
		t.Errorf("tax using its own pool: %v", err)
	}
	if err := tax.PingContext(context.Background()); err != nil {
		t.Errorf("start-up code using the pool: %v", err)
	}
	if s := tax.PoolStats(); s.CrossLane != 5 {
		t.Errorf("stats count %d cross-lane uses, want 5", s.CrossLane)
	}
}

func TestCrossLaneGuardLogMode(t *testing.T) {
	dsn, _ := env(t)
	var buf testsvc.SyncBuffer
	var events atomic.Int64
	tax := mustOpen[Tax](t, dsn, lanepool.Config{
		MaxConns: 1, AcquireTimeout: time.Second, Guard: lanepool.GuardLog,
		Logger: slog.New(slog.NewTextHandler(&buf, nil)),
		Observers: []lanepool.Observer{lanepool.ObserverFunc(func(e lanepool.Event) {
			if e.Kind == lanepool.EventCrossLane {
				events.Add(1)
			}
		})},
	})
	err := bulkhead.MustExecutor[Fraud]().Do(context.Background(), func(ctx context.Context) error {
		_, err := tax.ExecContext(ctx, "select 1")
		return err
	})
	if err != nil {
		t.Fatalf("GuardLog must let the use through: %v", err)
	}
	if s := tax.PoolStats(); s.CrossLane != 1 || events.Load() != 1 {
		t.Errorf("cross-lane uses counted %d, observed %d; want 1", s.CrossLane, events.Load())
	}
	if out := buf.String(); !strings.Contains(out, "ERR_SHARED_FAILURE_DOMAIN_DETECTED") || !strings.Contains(out, laneName[Fraud]()) {
		t.Errorf("log: %s", out)
	}
}

func TestEveryPathGivesItsConnectionBack(t *testing.T) {
	dsn, mon := env(t)
	db := mustOpen[Fraud](t, dsn, lanepool.Config{MaxConns: 2, AcquireTimeout: 5 * time.Second})
	ctx := ctxTimeout(t, 20*time.Second)
	inUse := func(what string) {
		t.Helper()
		if n := db.PoolStats().InUse; n != 0 {
			t.Errorf("after %s: %d connections in use", what, n)
		}
	}
	if _, err := db.ExecContext(ctx, "select 1"); err != nil {
		t.Fatal(err)
	}
	inUse("ExecContext")
	rows, err := db.QueryContext(ctx, "select generate_series(1, 3)")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if n != 3 || rows.Err() != nil {
		t.Fatalf("rows: %d, %v", n, rows.Err())
	}
	inUse("reading every row")
	rows.Close()
	rows, err = db.QueryContext(ctx, "select generate_series(1, 3)")
	if err != nil {
		t.Fatal(err)
	}
	rows.Next()
	rows.Close()
	inUse("closing rows early")
	var app string
	if err := db.QueryRowContext(ctx, "select current_setting('application_name')").Scan(&app); err != nil {
		t.Fatal(err)
	}
	if app != laneName[Fraud]() {
		t.Errorf("application_name is %q, want the lane's name %q", app, laneName[Fraud]())
	}
	inUse("Row.Scan")
	if err := db.QueryRowContext(ctx, "select 1 where false").Scan(new(int)); err == nil {
		t.Error("no rows: want sql.ErrNoRows")
	}
	inUse("Row.Scan of no rows")
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "select 1"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	inUse("Commit")
	tx, err = db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	inUse("Rollback")
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if err := c.Close(); err == nil {
		t.Error("second Close: want an error")
	}
	inUse("Conn.Close twice")
	// A query whose own deadline passes gives its connection back, and the
	// connection it broke is not counted twice.
	qctx, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	_, err = db.ExecContext(qctx, "select pg_sleep(10)")
	cancel()
	if err == nil {
		t.Error("pg_sleep(10) with a 30ms deadline succeeded")
	}
	// No caller holds the broken connection, but it keeps its slot until
	// the server ended its session.
	inUse("a query past its deadline")
	testsvc.WaitFor(t, "the broken session to end", func() bool { return db.PoolStats().Pending == 0 })
	// A panic while holding a connection: the deferred Close runs.
	func() {
		defer func() { _ = recover() }()
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		panic("boom")
	}()
	inUse("a panic")
	mon.WaitSessions(t, 2)
}

func TestAcquireFailures(t *testing.T) {
	dsn, _ := env(t)
	db := mustOpen[Tax](t, dsn, lanepool.Config{MaxConns: 1, MaxWaiters: 1, AcquireTimeout: 10 * time.Second})
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The caller's deadline is shorter than the acquire timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	_, err = db.Conn(ctx)
	cancel()
	var ae *lanepool.AcquireError
	if !errors.As(err, &ae) || ae.Reason != lanepool.ReasonDeadline || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline while waiting: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		testsvc.WaitFor(t, "a waiter", func() bool { return db.PoolStats().Waiting == 1 })
		cancel()
	}()
	_, err = db.Conn(ctx)
	if !errors.As(err, &ae) || ae.Reason != lanepool.ReasonCanceled {
		t.Errorf("canceled while waiting: %v", err)
	}
	// A waiter gets the connection as soon as it is given back.
	got := make(chan error, 1)
	go func() {
		c2, err := db.Conn(context.Background())
		if err == nil {
			c2.Close()
		}
		got <- err
	}()
	testsvc.WaitFor(t, "a waiter", func() bool { return db.PoolStats().Waiting == 1 })
	c.Close()
	if err := <-got; err != nil {
		t.Errorf("waiter: %v", err)
	}
	db.Close()
	_, err = db.Conn(context.Background())
	if !errors.As(err, &ae) || ae.Reason != lanepool.ReasonClosed {
		t.Errorf("closed pool: %v", err)
	}
}

func TestConfigRequiresABudget(t *testing.T) {
	for _, tc := range []struct {
		cfg  lanepool.Config
		want string
	}{
		{lanepool.Config{AcquireTimeout: time.Second}, "MaxConns"},
		{lanepool.Config{MaxConns: 3}, "AcquireTimeout"},
		{lanepool.Config{MaxConns: 3, AcquireTimeout: time.Second, MaxWaiters: -1}, "MaxWaiters"},
	} {
		_, err := lanedb.Open[Tax]("pgx", "postgres://x@127.0.0.1/x", tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "lanedb.DB[Tax]") {
			t.Errorf("%+v: got %v, want an error about %s", tc.cfg, err, tc.want)
		}
	}
}

func TestWithApplicationName(t *testing.T) {
	for _, tc := range []struct{ driver, in, want string }{
		{"pgx", "postgres://u@h:5432/db?sslmode=disable", "postgres://u@h:5432/db?application_name=tax&sslmode=disable"},
		{"pgx", "postgresql://u@h/db?application_name=other", "postgresql://u@h/db?application_name=tax"},
		{"pgx", "host=h user=u dbname=db", "host=h user=u dbname=db application_name='tax'"},
		{"mysql", "u@tcp(h)/db", "u@tcp(h)/db"},
	} {
		got, err := lanedb.WithApplicationName(tc.driver, tc.in, "tax")
		if err != nil || got != tc.want {
			t.Errorf("WithApplicationName(%q, %q) = %q, %v; want %q", tc.driver, tc.in, got, err, tc.want)
		}
	}
}

// waitFor polls cond; the limit is a hang detector, not a timing assertion.
