package lanedb_test

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/fakeclock"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestResetEndsStuckTransactionsAndDropsIdle(t *testing.T) {
	dsn, mon := env(t)
	db := mustOpen[Tax](t, dsn, lanepool.Config{MaxConns: 3, AcquireTimeout: 10 * time.Second,
		LeakThreshold: time.Millisecond, Logger: quiet()})
	ctx := ctxTimeout(t, 30*time.Second)

	stuck, err := db.BeginTx(ctx, nil) // idle in a transaction, waiting for its holder
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stuck.ExecContext(ctx, "select 1"); err != nil {
		t.Fatal(err)
	}
	held, err := db.Conn(ctx) // held outside a transaction: left alone
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	testsvc.WaitFor(t, "one idle connection", func() bool { return db.SQL().Stats().Idle == 1 })

	rep, err := db.Reset(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ended != 1 || rep.IdleClosed != 1 {
		t.Errorf("Reset = %+v; want 1 stuck session ended and 1 idle connection closed", rep)
	}
	if _, err := stuck.ExecContext(ctx, "select 1"); err == nil {
		t.Error("the stuck transaction's session still answers after Reset")
	}
	_ = stuck.Rollback()
	if _, err := held.ExecContext(ctx, "select 1"); err != nil {
		t.Errorf("a connection held outside a transaction was broken by Reset: %v", err)
	}
	held.Close()
	if _, err := db.ExecContext(ctx, "select 1"); err != nil {
		t.Errorf("the pool does not work after Reset: %v", err)
	}
	mon.WaitSessions(t, 2) // held's session and the last Exec's; the ended one is gone
}

func TestResetLeavesYoungTransactions(t *testing.T) {
	dsn, _ := env(t)
	db := mustOpen[Tax](t, dsn, lanepool.Config{MaxConns: 2, AcquireTimeout: 10 * time.Second, LeakThreshold: time.Hour, Logger: quiet()})
	ctx := ctxTimeout(t, 30*time.Second)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "select 1"); err != nil {
		t.Fatal(err)
	}
	rep, err := db.Reset(ctx)
	if err != nil || rep.Ended != 0 {
		t.Errorf("Reset = %+v, %v; want no session ended (the transaction is younger than the leak threshold)", rep, err)
	}
	if err := tx.Commit(); err != nil {
		t.Errorf("a young transaction was broken by Reset: %v", err)
	}
}

// Recovery lag end to end: the tax lane's dependency answers again, but a
// call sits in a transaction it never finishes; RecoveryLag later the lane
// reports ALERT_BULKHEAD_RECOVERY_LAG and its reset ends that session, so
// the stuck call fails and gives its slot and connection back.
func TestRecoveryLagResetsTheLanesPool(t *testing.T) {
	dsn, _ := env(t)
	db := mustOpen[Tax](t, dsn, lanepool.Config{MaxConns: 3, AcquireTimeout: 10 * time.Second,
		LeakThreshold: time.Millisecond, Logger: quiet()})
	clock := fakeclock.New(time.Date(2026, 9, 15, 12, 0, 0, 0, time.UTC))
	lagged := make(chan bulkhead.Event, 1)
	exec := bulkhead.MustExecutor[Tax](bulkhead.WithClock(clock), bulkhead.WithLogger(quiet()),
		bulkhead.WithObserver(bulkhead.ObserverFunc(func(e bulkhead.Event) {
			if e.Kind == bulkhead.EventRecoveryLag {
				lagged <- e
			}
		})))
	exec.ResetOnRecoveryLag(db)
	ctx := ctxTimeout(t, 60*time.Second)

	// Three calls fill the lane (SATURATED). The first sits in its
	// transaction until its session is ended under it.
	inTx, stuckDone := make(chan struct{}), make(chan error, 1)
	go func() {
		stuckDone <- exec.Do(ctx, func(ctx context.Context) error {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, "select 1"); err != nil {
				return err
			}
			close(inTx)
			for { // the holder is busy elsewhere, checking back now and then
				if _, err := tx.ExecContext(ctx, "select 1"); err != nil {
					return err
				}
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(20 * time.Millisecond):
				}
			}
		})
	}()
	<-inTx
	release := make(chan error)
	others := make(chan error, 2)
	for range 2 {
		entered := make(chan struct{})
		go func() {
			others <- exec.Do(ctx, func(context.Context) error { close(entered); return <-release })
		}()
		<-entered
	}
	if s := exec.Stats(); s.State != bulkhead.StateSaturated {
		t.Fatalf("lane state %v with every slot busy", s.State)
	}
	release <- nil // the dependency answers: 2 calls still run, the baseline for 3 slots
	<-others
	clock.Advance(10 * time.Second)

	select {
	case e := <-lagged:
		if e.Active != 2 {
			t.Errorf("recovery lag reported with %d calls running; want 2", e.Active)
		}
	default:
		t.Fatal("no recovery lag reported 10s after the dependency answered")
	}
	err := <-stuckDone
	if err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("the stuck call ended with %v; want the error of its ended session", err)
	}
	close(release)
	<-others
	if s := exec.Stats(); s.Active != 0 || s.Lagging {
		t.Errorf("after the reset: %+v", s)
	}
	var n int
	if err := db.QueryRowContext(ctx, "select 1").Scan(&n); err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Errorf("the pool does not work after the reset: %v", err)
	}
}
