package lanedb_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanedb"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	_ "github.com/jackc/pgx/v5/stdlib"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The payment core's three lanes, budgets scaled from 40/15/5 to 8/3/1.
// Names carry the process id so parallel test runs on one server do not
// see each other's sessions in pg_stat_activity.
type (
	CardAuth struct{}
	Fraud    struct{}
	Tax      struct{}
)

func (CardAuth) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "card_auth_" + testsvc.Suffix, MaxConcurrent: 16, MaxQueued: 16, QueueTimeout: time.Second, Policy: bulkhead.PolicyThrottle}
}

func (Fraud) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "fraud_" + testsvc.Suffix, MaxConcurrent: 6, MaxQueued: 4, QueueTimeout: time.Second}
}

func (Tax) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "tax_" + testsvc.Suffix, MaxConcurrent: 3, RetryAfter: 5 * time.Second}
}

func laneName[L bulkhead.Lane]() string {
	s, err := bulkhead.SpecOf[L]()
	if err != nil {
		panic(err)
	}
	return s.Name
}

// env opens the monitor connection and registers the end-of-test checks:
// no goroutine and no session of the test's lanes left behind.
func env(t *testing.T) (dsn string, mon *sql.DB) {
	t.Helper()
	dsn = testsvc.PostgresDSN(t)
	mon, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := mon.PingContext(ctx); err != nil {
		t.Fatalf("PostgreSQL at %s accepts TCP but not this DSN: %v", dsn, err)
	}
	t.Cleanup(func() {
		waitSessions(t, mon, 0)
		mon.Close()
		goleak.VerifyNone(t)
	})
	return dsn, mon
}

var lanes = []string{laneName[CardAuth](), laneName[Fraud](), laneName[Tax]()}

// sessions counts the sessions of each lane in pg_stat_activity.
func sessions(ctx context.Context, mon *sql.DB) (map[string]int, error) {
	rows, err := mon.QueryContext(ctx, `select application_name, count(*) from pg_stat_activity where application_name = any($1) group by 1`, lanes)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	n := map[string]int{}
	for rows.Next() {
		var app string
		var c int
		if err := rows.Scan(&app, &c); err != nil {
			return nil, err
		}
		n[app] = c
	}
	return n, rows.Err()
}

// waitSessions waits until no lane has more than max sessions open; the
// server ends a backend a moment after its client closed it.
func waitSessions(t *testing.T, mon *sql.DB, max int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		n, err := sessions(context.Background(), mon)
		if err != nil {
			t.Errorf("reading pg_stat_activity: %v", err)
			return
		}
		over := false
		for _, c := range n {
			over = over || c > max
		}
		if !over {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("sessions left behind in pg_stat_activity: %v", n)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func mustOpen[L bulkhead.Lane](t *testing.T, dsn string, cfg lanepool.Config) *lanedb.DB[L] {
	t.Helper()
	db, err := lanedb.Open[L]("pgx", dsn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Open the connections up front, outside the gate: a first dial on a
	// loaded machine can take longer than the tight acquire timeouts the
	// tests use, and those timeouts include dialing.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := db.SQL().PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A connection broken by a deadline keeps its slot until the server
		// ended its session: give that a bounded moment.
		for end := time.Now().Add(15 * time.Second); db.PoolStats().InUse != 0 && time.Now().Before(end); {
			time.Sleep(2 * time.Millisecond)
		}
		if s := db.PoolStats(); s.InUse != 0 || s.Waiting != 0 {
			t.Errorf("%s: %d connections still held and %d callers waiting at the end of the test", s.Resource, s.InUse, s.Waiting)
		}
		db.Close()
	})
	return db
}

func ctxTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func errf(format string, args ...any) error { return fmt.Errorf(format, args...) }
