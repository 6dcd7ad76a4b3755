package lanepgx_test

import (
	"context"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc/pooltest"
	"github.com/bhlint/bhlint/bulkhead/lanepgx"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Partitions and hangs: a pool whose PostgreSQL is behind a proxy the test
// cuts or hangs.

// newViaProxy opens lane L's pool on dsn (a proxy's), and at the end of
// the test waits for every slot to be given back and closes it.
func newViaProxy[L bulkhead.Lane](t *testing.T, dsn string, cfg lanepool.Config) *lanepgx.Pool[L] {
	t.Helper()
	p, err := lanepgx.New[L](context.Background(), dsn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	closeAtEnd(t, p)
	return p
}

// closeAtEnd waits at the end of the test for every slot of p to be given
// back, and closes it.
func closeAtEnd[L bulkhead.Lane](t *testing.T, p *lanepgx.Pool[L]) {
	t.Cleanup(func() {
		testsvc.WaitFor(t, "every slot to be given back", func() bool {
			s := p.PoolStats()
			return s.InUse+s.Pending+s.Waiting == 0
		})
		p.Close()
	})
}

// viaProxy is a pool of lane L behind a proxy of the test's own, for pooltest.
func viaProxy[L bulkhead.Lane](t *testing.T, cfg lanepool.Config) (*testsvc.Proxy, pooltest.Pool) {
	t.Helper()
	env(t)
	dsn, proxy := testsvc.PostgresProxy(t)
	return proxy, poolOf(newViaProxy[L](t, dsn, cfg))
}

// poolOf is what pooltest needs of p.
func poolOf[L bulkhead.Lane](p *lanepgx.Pool[L]) pooltest.Pool {
	return pooltest.Pool{
		Stats: p.PoolStats,
		Acquire: func(ctx context.Context) (func(context.Context) error, func(), error) {
			c, err := p.Acquire(ctx)
			if err != nil {
				return nil, nil, err
			}
			return c.Ping, c.Release, nil
		},
	}
}

// TestConnectFailureIsNotATimeout: before the fix, with PostgreSQL refusing
// connections, the error said "all 2 connections stayed in use for the
// acquire timeout (0s)", reason timeout, ErrRejected (the acquire context
// was canceled before the reason was read), and the failure counted as
// acquired.
func TestConnectFailureIsNotATimeout(t *testing.T) {
	proxy, p := viaProxy[Tax](t, lanepool.Config{MaxConns: 2, MaxWaiters: 1, AcquireTimeout: 5 * time.Second})
	pooltest.ConnectRefused(t, proxy, p)
}

// TestRecoversAfterAHang: pgxpool goes on dialing without a deadline once
// the caller gave up, so after a hang the pool's slots stayed with dials
// that never ended (before the fix it did not serve again within the
// test's 20s); and every failed acquire counted as acquired.
func TestRecoversAfterAHang(t *testing.T) {
	proxy, p := viaProxy[Tax](t, lanepool.Config{MaxConns: 2, MaxWaiters: 2, AcquireTimeout: 200 * time.Millisecond, LeakThreshold: -1})
	pooltest.HangThenHeal(t, proxy, p)
}

// TestSlowDialServesALaterCaller: a 400ms connect and a 100ms acquire
// timeout. Before the fix the slot of a dial whose caller gave up was given
// back at once (Stats.Pending 0 while pgxpool went on dialing), and the
// timeout said all connections stayed in use.
func TestSlowDialServesALaterCaller(t *testing.T) {
	dsn, _ := env(t)
	pc, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pc.BeforeConnect = func(ctx context.Context, _ *pgx.ConnConfig) error {
		select {
		case <-time.After(400 * time.Millisecond): // a slow network, or a server slow to start sessions
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	p, err := lanepgx.NewWithConfig[Tax](context.Background(), pc, lanepool.Config{MaxConns: 5, MaxWaiters: 5, AcquireTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	closeAtEnd(t, p)
	pooltest.SlowDial(t, poolOf(p))
}
