package lanepgx_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

func resetCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestResetEndsStuckTransactionsAndDropsIdle(t *testing.T) {
	dsn, mon := env(t)
	p := mustNew[Tax](t, dsn, lanepool.Config{MaxConns: 3, AcquireTimeout: 10 * time.Second,
		LeakThreshold: time.Millisecond, Logger: quiet()})
	ctx := resetCtx(t, 30*time.Second)

	// Work that began a transaction and is now stuck elsewhere: its session
	// is idle in a transaction, waiting for it.
	stuck, err := p.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stuck.Exec(ctx, "select 1"); err != nil {
		t.Fatal(err)
	}
	// Work holding a connection outside any transaction: left alone.
	held, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// One idle connection.
	c, err := p.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.Release()
	testsvc.WaitFor(t, "one idle connection", func() bool { return p.PoolStats().Idle == 1 })

	rep, err := p.Reset(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ended != 1 || rep.IdleClosed != 1 {
		t.Errorf("Reset = %+v; want 1 stuck session ended and 1 idle connection closed", rep)
	}
	if _, err := stuck.Exec(ctx, "select 1"); err == nil {
		t.Error("the stuck transaction's session still answers after Reset")
	}
	_ = stuck.Rollback(ctx) // gives the broken connection back
	if _, err := held.Exec(ctx, "select 1"); err != nil {
		t.Errorf("a connection held outside a transaction was broken by Reset: %v", err)
	}
	held.Release()
	if _, err := p.Exec(ctx, "select 1"); err != nil {
		t.Errorf("the pool does not work after Reset: %v", err)
	}
	// Left: the one session the last Exec opened. The ended one is gone, and
	// the one held outside a transaction was closed when given back.
	mon.WaitSessions(t, 1)
}

func TestResetLeavesYoungTransactions(t *testing.T) {
	dsn, _ := env(t)
	p := mustNew[Tax](t, dsn, lanepool.Config{MaxConns: 2, AcquireTimeout: 10 * time.Second, LeakThreshold: time.Hour, Logger: quiet()})
	ctx := resetCtx(t, 30*time.Second)
	tx, err := p.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "select 1"); err != nil {
		t.Fatal(err)
	}
	rep, err := p.Reset(ctx)
	if err != nil || rep.Ended != 0 {
		t.Errorf("Reset = %+v, %v; want no session ended (the transaction is younger than the leak threshold)", rep, err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Errorf("a young transaction was broken by Reset: %v", err)
	}
}
