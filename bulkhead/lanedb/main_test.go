package lanedb_test

import (
	"context"
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

// env connects the monitor of the test's lanes and registers the
// end-of-test checks: no goroutine and no session left behind.
func env(t *testing.T) (dsn string, mon *testsvc.Monitor) {
	t.Helper()
	return testsvc.NewMonitor(t, laneName[CardAuth](), laneName[Fraud](), laneName[Tax]())
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
		// A connection broken by a deadline keeps its slot (Pending) until
		// the server ended its session: give that a bounded moment.
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); {
			if s := db.PoolStats(); s.InUse+s.Pending == 0 {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		if s := db.PoolStats(); s.InUse != 0 || s.Pending != 0 || s.Waiting != 0 {
			t.Errorf("%s: %d connections still held, %d slots pending and %d callers waiting at the end of the test", s.Resource, s.InUse, s.Pending, s.Waiting)
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
