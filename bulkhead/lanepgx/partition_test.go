package lanepgx_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanepgx"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// The tests of issue 19: a pool whose PostgreSQL is behind a proxy the
// test cuts or hangs.

func newViaProxy[L bulkhead.Lane](t *testing.T, dsn string, cfg lanepool.Config) *lanepgx.Pool[L] {
	t.Helper()
	p, err := lanepgx.New[L](context.Background(), dsn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		testsvc.WaitFor(t, "every slot to be given back", func() bool { s := p.PoolStats(); return s.InUse == 0 && s.Waiting == 0 })
		p.Close()
	})
	return p
}

// TestConnectFailureIsNotATimeout is defects 4 and 6 of issue 19: with
// PostgreSQL refusing connections, the acquire fails with ReasonConnect and
// the dial's error, is not a rejection for lack of capacity, and counts as
// a failure, not as an acquired connection.
func TestConnectFailureIsNotATimeout(t *testing.T) {
	env(t)
	dsn, proxy := testsvc.PostgresProxy(t)
	proxy.Cut()
	p := newViaProxy[Tax](t, dsn, lanepool.Config{MaxConns: 2, MaxWaiters: 1, AcquireTimeout: 5 * time.Second})
	_, err := p.Acquire(context.Background())
	var ae *lanepool.AcquireError
	if !errors.As(err, &ae) || ae.Reason != lanepool.ReasonConnect {
		t.Fatalf("PostgreSQL refusing connections: %v, want an AcquireError with ReasonConnect", err)
	}
	if errors.Is(err, bulkhead.ErrRejected) {
		t.Errorf("a connect failure is errors.Is(ErrRejected): callers would shed it as a full lane")
	}
	if msg := err.Error(); !strings.Contains(msg, "opening a connection failed") || !strings.Contains(msg, "refused") {
		t.Errorf("the error does not say the dial failed and why: %v", err)
	}
	if s := p.PoolStats(); s.Acquired != 0 || s.Failed != 1 || s.Timeouts != 0 || s.InUse != 0 {
		t.Errorf("stats: %+v; want 0 acquired, 1 failed, 0 timeouts", s)
	}
}

// TestRecoversAfterAHang is defects 5 and 6 of issue 19: PostgreSQL hangs
// (connections are accepted and never answered) for 2s, then recovers. The
// dials started during the hang, which their callers abandoned, must end
// by themselves (pgxpool's go on without a deadline: before the fix the
// pool never served again), so the pool serves again; meanwhile no
// connection is reported in use, since no caller holds one, and no failed
// acquire is counted as acquired.
func TestRecoversAfterAHang(t *testing.T) {
	env(t)
	dsn, proxy := testsvc.PostgresProxy(t)
	p := newViaProxy[Tax](t, dsn, lanepool.Config{MaxConns: 2, MaxWaiters: 2, AcquireTimeout: 200 * time.Millisecond, LeakThreshold: -1})
	// No connection is open yet: every acquire during the hang dials.
	before := p.PoolStats()
	proxy.Hang()
	hung := time.Now()
	acquired, failed, reported := 0, 0, false
	for time.Since(hung) < 2*time.Second {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		c, err := p.Acquire(ctx)
		if err == nil { // a connection the hang did not reach: it must not answer
			acquired++
			perr := c.Ping(ctx)
			c.Release()
			if perr == nil {
				t.Fatal("a hung server answered a ping")
			}
		} else if errors.As(err, new(*lanepool.AcquireError)) {
			failed++
		} else {
			t.Fatalf("acquire from a hung server: %v", err)
		}
		cancel()
		if s := p.PoolStats(); s.InUse != 0 && !reported {
			reported = true // once, and go on to see the pool recover
			t.Errorf("after %d failed acquires: %d connections in use, but no caller holds one (%+v)", failed, s.InUse, s)
		}
	}
	if s := p.PoolStats(); s.Acquired != before.Acquired+uint64(acquired) || s.Failed != before.Failed+uint64(failed) {
		t.Errorf("stats after %d acquires and %d failed ones: %+v (before: %d acquired, %d failed)", acquired, failed, s, before.Acquired, before.Failed)
	}
	proxy.Heal()
	healed := time.Now()
	testsvc.WaitFor(t, "the pool to serve again after the server recovered", func() bool {
		c, err := p.Acquire(context.Background())
		if err != nil {
			return false
		}
		defer c.Release()
		return c.Ping(context.Background()) == nil
	})
	t.Logf("hung for %s (%d acquires failed); serving again %s after the server recovered",
		healed.Sub(hung).Round(time.Millisecond), failed, time.Since(healed).Round(time.Millisecond))
}
