package lanedb_test

import (
	"context"
	"database/sql/driver"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc/pooltest"
	"github.com/bhlint/bhlint/bulkhead/lanedb"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Partitions and hangs: a pool whose PostgreSQL is behind a proxy the test
// cuts or hangs.

func viaProxy[L bulkhead.Lane](t *testing.T, cfg lanepool.Config) (*testsvc.Proxy, pooltest.Pool) {
	t.Helper()
	env(t)
	dsn, proxy := testsvc.PostgresProxy(t)
	db, err := lanedb.Open[L]("pgx", dsn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return proxy, poolOf(t, db)
}

// poolOf is what pooltest needs of db; at the end of the test it waits for
// every slot to be given back and closes db.
func poolOf[L bulkhead.Lane](t *testing.T, db *lanedb.DB[L]) pooltest.Pool {
	t.Cleanup(func() {
		testsvc.WaitFor(t, "every slot to be given back", func() bool {
			s := db.PoolStats()
			return s.InUse+s.Pending+s.Waiting == 0
		})
		db.Close()
	})
	return pooltest.Pool{
		Stats: db.PoolStats,
		Acquire: func(ctx context.Context) (func(context.Context) error, func(), error) {
			c, err := db.Conn(ctx)
			if err != nil {
				return nil, nil, err
			}
			return c.PingContext, func() { c.Close() }, nil
		},
	}
}

// TestConnectFailure: before the fix a refused dial counted as an acquired
// connection (the reason and message were right already).
func TestConnectFailure(t *testing.T) {
	proxy, p := viaProxy[Tax](t, lanepool.Config{MaxConns: 2, MaxWaiters: 1, AcquireTimeout: 5 * time.Second})
	pooltest.ConnectRefused(t, proxy, p)
}

// TestRecoversAfterAHang: before the fix, while the server hung, the slots
// kept for dials their callers had abandoned were reported as connections
// in use, and the failed acquires as acquired.
func TestRecoversAfterAHang(t *testing.T) {
	proxy, p := viaProxy[Tax](t, lanepool.Config{MaxConns: 2, MaxWaiters: 2, AcquireTimeout: 200 * time.Millisecond, LeakThreshold: -1})
	pooltest.HangThenHeal(t, proxy, p)
}

// slowConnector connects to PostgreSQL after a delay, as over a slow
// network or a server slow to start sessions.
type slowConnector struct {
	driver.Connector
	delay time.Duration
}

func (c slowConnector) Connect(ctx context.Context) (driver.Conn, error) {
	select {
	case <-time.After(c.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return c.Connector.Connect(ctx)
}

// TestSlowDialServesALaterCaller: a 400ms connect and a 100ms acquire
// timeout. Before the fix a dial whose caller gave up was closed, so no
// acquire ever got a connection, and the timeout said all connections
// stayed in use.
func TestSlowDialServesALaterCaller(t *testing.T) {
	dsn, _ := env(t)
	pc, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pc.RuntimeParams["application_name"] = laneName[Tax]()
	db, err := lanedb.OpenDB[Tax](slowConnector{stdlib.GetConnector(*pc), 400 * time.Millisecond},
		lanepool.Config{MaxConns: 5, MaxWaiters: 5, AcquireTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	pooltest.SlowDial(t, poolOf(t, db))
}
