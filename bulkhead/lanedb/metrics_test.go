package lanedb_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/bhlint/bhlint/bulkhead/promlane"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

func TestPoolMetrics(t *testing.T) {
	dsn, _ := env(t)
	col := promlane.New(promlane.Opts{})
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(col)
	leaked := make(chan struct{}, 1)
	tax := mustOpen[Tax](t, dsn, lanepool.Config{
		MaxConns: 1, MaxWaiters: 1, AcquireTimeout: 30 * time.Millisecond, LeakThreshold: 40 * time.Millisecond,
		OnLeak:    func(lanepool.Leak) { leaked <- struct{}{} },
		Observers: []lanepool.Observer{col},
	})
	c, err := tax.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tax.Conn(context.Background()); err == nil {
		t.Fatal("second acquire of a budget of 1 succeeded")
	}
	<-leaked
	_ = bulkhead.MustExecutor[Fraud]().Do(context.Background(), func(ctx context.Context) error {
		_, err := tax.Conn(ctx)
		return err
	})
	lane := laneName[Tax]()
	want := `
# HELP bulkhead_pool_acquire_timeouts_total Acquires that ran out of time: the acquire timeout or the caller's deadline.
# TYPE bulkhead_pool_acquire_timeouts_total counter
bulkhead_pool_acquire_timeouts_total{lane="LANE",pool="lanedb.DB[Tax]"} 1
# HELP bulkhead_pool_connections_in_use Connections of the lane's pool held by callers now.
# TYPE bulkhead_pool_connections_in_use gauge
bulkhead_pool_connections_in_use{lane="LANE",pool="lanedb.DB[Tax]"} 1
# HELP bulkhead_pool_cross_lane_total Uses of the pool by work of another lane, by that lane.
# TYPE bulkhead_pool_cross_lane_total counter
bulkhead_pool_cross_lane_total{caller="CALLER",lane="LANE",pool="lanedb.DB[Tax]"} 1
# HELP bulkhead_pool_leaks_total Connections held longer than the pool's leak threshold.
# TYPE bulkhead_pool_leaks_total counter
bulkhead_pool_leaks_total{lane="LANE",pool="lanedb.DB[Tax]"} 1
# HELP bulkhead_pool_max_connections The lane's connection budget for the pool.
# TYPE bulkhead_pool_max_connections gauge
bulkhead_pool_max_connections{lane="LANE",pool="lanedb.DB[Tax]"} 1
# HELP bulkhead_pool_waiting_callers Callers waiting for a connection of the lane's pool now.
# TYPE bulkhead_pool_waiting_callers gauge
bulkhead_pool_waiting_callers{lane="LANE",pool="lanedb.DB[Tax]"} 0
`
	want = strings.NewReplacer("LANE", lane, "CALLER", laneName[Fraud]()).Replace(want)
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"bulkhead_pool_acquire_timeouts_total", "bulkhead_pool_connections_in_use", "bulkhead_pool_cross_lane_total",
		"bulkhead_pool_leaks_total", "bulkhead_pool_max_connections", "bulkhead_pool_waiting_callers"); err != nil {
		t.Error(err)
	}
	if n, err := testutil.GatherAndCount(reg, "bulkhead_pool_acquire_failures_total", "bulkhead_pool_acquire_wait_seconds", "bulkhead_pool_connections_idle"); err != nil || n != len(lanepool.Reasons)+2 {
		t.Errorf("failure, wait and idle series: %d, %v", n, err)
	}
	c.Close()
	after := strings.NewReplacer("LANE", lane).Replace(`
# HELP bulkhead_pool_connections_in_use Connections of the lane's pool held by callers now.
# TYPE bulkhead_pool_connections_in_use gauge
bulkhead_pool_connections_in_use{lane="LANE",pool="lanedb.DB[Tax]"} 0
`)
	if err := testutil.GatherAndCompare(reg, strings.NewReader(after), "bulkhead_pool_connections_in_use"); err != nil {
		t.Error(err)
	}
}
