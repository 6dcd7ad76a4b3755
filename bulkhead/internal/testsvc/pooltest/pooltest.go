// Package pooltest holds the partition tests that every lane pool (lanedb,
// lanepgx) must pass, against the real PostgreSQL behind a testsvc.Proxy.
package pooltest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// Pool is what the tests need of a lane pool.
type Pool struct {
	Stats func() lanepool.Stats
	// Acquire takes a connection: ping runs on it, release gives it back.
	Acquire func(ctx context.Context) (ping func(context.Context) error, release func(), err error)
}

// ConnectRefused: with PostgreSQL refusing connections (the proxy cut), an
// acquire fails with ReasonConnect and the dial's error, is not a rejection
// for lack of capacity, and counts as a failure, not as an acquired
// connection.
func ConnectRefused(t *testing.T, proxy *testsvc.Proxy, p Pool) {
	t.Helper()
	proxy.Cut()
	_, _, err := p.Acquire(context.Background())
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
	if s := p.Stats(); s.Acquired != 0 || s.Failed != 1 || s.Timeouts != 0 || s.InUse != 0 {
		t.Errorf("stats: %+v; want 0 acquired, 1 failed, 0 timeouts", s)
	}
}

// HangThenHeal: PostgreSQL hangs (connections are accepted and never
// answered) for 2s, with no connection open before, then recovers. Every
// acquire during the hang dials, and its caller gives up; those dials must
// end by themselves so the pool serves again once the server is back.
// Meanwhile no connection is reported in use, since no caller holds one,
// and no failed acquire is counted as acquired.
func HangThenHeal(t *testing.T, proxy *testsvc.Proxy, p Pool) {
	t.Helper()
	before := p.Stats()
	proxy.Hang()
	hung := time.Now()
	acquired, failed, reported := 0, 0, false
	for time.Since(hung) < 2*time.Second {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		ping, release, err := p.Acquire(ctx)
		if err == nil { // a connection the hang did not reach: it must not answer
			acquired++
			perr := ping(ctx)
			release()
			if perr == nil {
				t.Fatal("a hung server answered a ping")
			}
		} else if errors.As(err, new(*lanepool.AcquireError)) {
			failed++
		} else {
			t.Fatalf("acquire from a hung server: %v", err)
		}
		cancel()
		if s := p.Stats(); s.InUse != 0 && !reported {
			reported = true // once, and go on to see the pool recover
			t.Errorf("after %d failed acquires: %d connections in use, but no caller holds one (%+v)", failed, s.InUse, s)
		}
	}
	if s := p.Stats(); s.Acquired != before.Acquired+uint64(acquired) || s.Failed != before.Failed+uint64(failed) {
		t.Errorf("stats after %d acquires and %d failed ones: %+v (before: %d acquired, %d failed)", acquired, failed, s, before.Acquired, before.Failed)
	}
	proxy.Heal()
	healed := time.Now()
	testsvc.WaitFor(t, "the pool to serve again after the server recovered", func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		ping, release, err := p.Acquire(ctx)
		if err != nil {
			return false
		}
		defer release()
		return ping(ctx) == nil
	})
	t.Logf("hung for %s (%d acquires failed); serving again %s after the server recovered",
		healed.Sub(hung).Round(time.Millisecond), failed, time.Since(healed).Round(time.Millisecond))
}
