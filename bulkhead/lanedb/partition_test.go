package lanedb_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanedb"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// The tests of issue 19: a pool whose PostgreSQL is behind a proxy the
// test cuts or hangs.

func openViaProxy[L bulkhead.Lane](t *testing.T, dsn string, cfg lanepool.Config) *lanedb.DB[L] {
	t.Helper()
	db, err := lanedb.Open[L]("pgx", dsn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		testsvc.WaitFor(t, "every slot to be given back", func() bool { s := db.PoolStats(); return s.InUse == 0 && s.Waiting == 0 })
		db.Close()
	})
	return db
}

// TestConnectFailure is defect 6 of issue 19 (and lanedb's side of defect
// 4): with PostgreSQL refusing connections, the acquire fails with
// ReasonConnect and counts as a failure, not as an acquired connection.
func TestConnectFailure(t *testing.T) {
	env(t)
	dsn, proxy := testsvc.PostgresProxy(t)
	proxy.Cut()
	db := openViaProxy[Tax](t, dsn, lanepool.Config{MaxConns: 2, MaxWaiters: 1, AcquireTimeout: 5 * time.Second})
	_, err := db.Conn(context.Background())
	var ae *lanepool.AcquireError
	if !errors.As(err, &ae) || ae.Reason != lanepool.ReasonConnect || errors.Is(err, bulkhead.ErrRejected) {
		t.Fatalf("PostgreSQL refusing connections: %v, want an AcquireError with ReasonConnect", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "opening a connection failed") || !strings.Contains(msg, "refused") {
		t.Errorf("the error does not say the dial failed and why: %v", err)
	}
	if s := db.PoolStats(); s.Acquired != 0 || s.Failed != 1 || s.Timeouts != 0 || s.InUse != 0 {
		t.Errorf("stats: %+v; want 0 acquired, 1 failed, 0 timeouts", s)
	}
}

// TestRecoversAfterAHang is defect 6 of issue 19 (and lanedb's side of
// defect 5): PostgreSQL hangs (connections are accepted and never
// answered), then recovers. While it hangs, dials abandoned by their
// callers keep their slots, but no connection is reported in use, since no
// caller holds one; once it recovers the pool serves again.
func TestRecoversAfterAHang(t *testing.T) {
	env(t)
	dsn, proxy := testsvc.PostgresProxy(t)
	db := openViaProxy[Tax](t, dsn, lanepool.Config{MaxConns: 2, MaxWaiters: 2, AcquireTimeout: 200 * time.Millisecond, LeakThreshold: -1})
	// No connection is open yet: every acquire during the hang dials.
	before := db.PoolStats()
	proxy.Hang()
	hung := time.Now()
	acquired, failed, reported := 0, 0, false
	for time.Since(hung) < 2*time.Second {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		c, err := db.Conn(ctx)
		if err == nil { // a connection the hang did not reach: it must not answer
			acquired++
			perr := c.PingContext(ctx)
			c.Close()
			if perr == nil {
				t.Fatal("a hung server answered a ping")
			}
		} else if errors.As(err, new(*lanepool.AcquireError)) {
			failed++
		} else {
			t.Fatalf("acquire from a hung server: %v", err)
		}
		cancel()
		if s := db.PoolStats(); s.InUse != 0 && !reported {
			reported = true // once, and go on to see the pool recover
			t.Errorf("after %d failed acquires: %d connections in use, but no caller holds one (%+v)", failed, s.InUse, s)
		}
	}
	if s := db.PoolStats(); s.Acquired != before.Acquired+uint64(acquired) || s.Failed != before.Failed+uint64(failed) {
		t.Errorf("stats after %d acquires and %d failed ones: %+v (before: %d acquired, %d failed)", acquired, failed, s, before.Acquired, before.Failed)
	}
	proxy.Heal()
	healed := time.Now()
	testsvc.WaitFor(t, "the pool to serve again after the server recovered", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		return db.PingContext(ctx) == nil
	})
	t.Logf("hung for %s (%d acquires failed); serving again %s after the server recovered",
		healed.Sub(hung).Round(time.Millisecond), failed, time.Since(healed).Round(time.Millisecond))
}
