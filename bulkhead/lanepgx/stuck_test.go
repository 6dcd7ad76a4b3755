package lanepgx_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/fakeclock"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanebreaker"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

type StuckTax struct{}

func (StuckTax) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "pgx_stuck_tax_" + testsvc.Suffix, MaxConcurrent: 2, MaxRunTime: 10 * time.Second}
}

// Work hung on a silent PostgreSQL (behind a proxy the test hangs) is
// cancelled at the lane's MaxRunTime, reported with a stack in pgx, counted
// against the lane's breaker, and gives its slot back once it has returned;
// after the server heals the lane serves again.
//
// It takes about 15s: the broken connection's slot is kept until pgx has
// given up on the silent server closing the session.
func TestMaxRunTimeCancelsWorkHungOnPostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 15s (pgx's wait for a hung server); run without -short")
	}
	testsvc.NewMonitor(t, name[StuckTax]())
	dsn, proxy := testsvc.PostgresProxy(t)
	p := newViaProxy[StuckTax](t, dsn, lanepool.Config{MaxConns: 2, AcquireTimeout: 10 * time.Second, LeakThreshold: -1})
	ctx := resetCtx(t, 60*time.Second)
	if err := p.Ping(ctx); err != nil { // one connection open before the hang
		t.Fatal(err)
	}
	clock := fakeclock.New(time.Date(2026, 9, 15, 12, 0, 0, 0, time.UTC))
	br, err := lanebreaker.New(lanebreaker.Config{MinCalls: 1, FailureRate: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var stuck []bulkhead.Event
	exec := bulkhead.MustExecutor[StuckTax](bulkhead.WithClock(clock), bulkhead.WithBreaker(br), bulkhead.WithLogger(quiet()),
		bulkhead.WithObserver(bulkhead.ObserverFunc(func(e bulkhead.Event) {
			if e.Kind == bulkhead.EventStuck {
				mu.Lock()
				stuck = append(stuck, e)
				mu.Unlock()
			}
		})))

	proxy.Hang()
	done := make(chan error, 1)
	go func() {
		done <- exec.Do(ctx, func(ctx context.Context) error {
			_, err := p.Exec(ctx, "select 1") // never answered
			return err
		})
	}()
	testsvc.WaitFor(t, "the call to hold a connection", func() bool { return p.PoolStats().InUse == 1 })
	clock.Advance(10 * time.Second)

	if err := <-done; err == nil {
		t.Fatal("the hung call returned no error")
	}
	mu.Lock()
	if len(stuck) != 1 || !strings.Contains(stuck[0].Stack, "pgconn") {
		t.Errorf("stuck events %+v; want one whose stack is in pgx", stuck)
	}
	mu.Unlock()
	if s := exec.Stats(); s.Active != 0 || s.Stuck != 0 || s.Breaker != bulkhead.BreakerOpen {
		t.Errorf("after the hung call returned: %+v; want no call running and the breaker open (a timeout is a failure)", s)
	}

	proxy.Heal()
	br.Close() // as its probes would, once the server answers
	testsvc.WaitFor(t, "the lane to serve again", func() bool {
		return exec.Do(ctx, func(ctx context.Context) error {
			c, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			return p.Ping(c)
		}) == nil
	})
}

type LaggyTax struct{}

func (LaggyTax) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "pgx_laggy_tax_" + testsvc.Suffix, MaxConcurrent: 3, Baseline: 2, MaxRunTime: 20 * time.Second}
}

// The payment spec's recovery drill in miniature, on a real PostgreSQL
// behind a proxy: the server goes silent under two calls, comes back and
// answers a third, but the two stay hung (their connections were lost in
// the partition): RecoveryLag later the lane reports
// ALERT_BULKHEAD_RECOVERY_LAG and resets its pool; at MaxRunTime the hung
// calls are cancelled, and the lane is back below its baseline.
func TestRecoveryLagAfterPostgresHang(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 15s (pgx's wait for a hung server); run without -short")
	}
	testsvc.NewMonitor(t, name[LaggyTax]())
	dsn, proxy := testsvc.PostgresProxy(t)
	p := newViaProxy[LaggyTax](t, dsn, lanepool.Config{MaxConns: 3, AcquireTimeout: 10 * time.Second, LeakThreshold: -1})
	ctx := resetCtx(t, 60*time.Second)
	var logs testsvc.SyncBuffer
	clock := fakeclock.New(time.Date(2026, 9, 15, 12, 0, 0, 0, time.UTC))
	events := make(chan bulkhead.Event, 8)
	exec := bulkhead.MustExecutor[LaggyTax](bulkhead.WithClock(clock), bulkhead.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))),
		bulkhead.WithObserver(bulkhead.ObserverFunc(func(e bulkhead.Event) {
			if e.Kind == bulkhead.EventRecoveryLag || e.Kind == bulkhead.EventRecoveryLagEnded {
				events <- e
			}
		})))
	exec.ResetOnRecoveryLag(p)

	// Two connections open, then the server goes silent under two calls.
	c1, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c1.Release()
	c2.Release()
	proxy.Hang()
	hung := make(chan error, 2)
	for range 2 {
		go func() {
			hung <- exec.Do(ctx, func(ctx context.Context) error { _, err := p.Exec(ctx, "select 1"); return err })
		}()
	}
	testsvc.WaitFor(t, "two calls hung on the server", func() bool { return p.PoolStats().InUse == 2 })
	// A third call fills the lane (SATURATED) and reaches the server once it is back.
	heal, third := make(chan struct{}), make(chan error, 1)
	go func() {
		third <- exec.Do(ctx, func(ctx context.Context) error { <-heal; return p.Ping(ctx) })
	}()
	testsvc.WaitFor(t, "the lane to fill", func() bool { return exec.Stats().State == bulkhead.StateSaturated })
	proxy.Heal()
	close(heal)
	if err := <-third; err != nil {
		t.Fatalf("the call after the server came back: %v", err)
	}

	clock.Advance(10 * time.Second)
	select {
	case e := <-events:
		if e.Kind != bulkhead.EventRecoveryLag || e.Active != 2 {
			t.Errorf("first event %+v; want the recovery lag with the 2 hung calls running", e)
		}
	default:
		t.Fatal("no recovery lag 10s after the server answered again")
	}
	if l := logs.String(); !strings.Contains(l, bulkhead.AlertRecoveryLag) || strings.Contains(l, "failed") {
		t.Errorf("log: %s\nwant the alert and a pool reset that did not fail", l)
	}

	clock.Advance(10 * time.Second) // MaxRunTime: the hung calls are cancelled
	for range 2 {
		if err := <-hung; err == nil {
			t.Error("a hung call returned no error")
		}
	}
	select {
	case e := <-events:
		if e.Kind != bulkhead.EventRecoveryLagEnded || e.Wait != 20*time.Second {
			t.Errorf("second event %+v; want the end of the lag, 20s after the answer", e)
		}
	default:
		t.Error("the lag did not end once the hung calls returned")
	}
}
