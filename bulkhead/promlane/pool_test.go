package promlane_test

import (
	"strings"
	"testing"

	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/bhlint/bhlint/bulkhead/promlane"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// statsSource is a pool as the collector sees it: something that reports
// its stats.
type statsSource lanepool.Stats

func (s statsSource) PoolStats() lanepool.Stats { return lanepool.Stats(s) }

// The pool gauges come from the pool's own snapshot, Pending included: slots
// taken by dials or unfinished sessions are what a budget that looks free
// in connections_in_use is spent on.
func TestPoolGauges(t *testing.T) {
	col := promlane.New(promlane.Opts{})
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(col)
	src := statsSource{Lane: "tax", Resource: "lanepgx.Pool[Tax]", Budget: 4, InUse: 1, Idle: 0, Waiting: 2, Pending: 3}
	col.ObservePool(lanepool.Event{Kind: lanepool.EventAttached, Lane: src.Lane, Resource: src.Resource, Source: src})
	want := `
# HELP bulkhead_pool_connections_in_use Connections of the lane's pool held by callers now.
# TYPE bulkhead_pool_connections_in_use gauge
bulkhead_pool_connections_in_use{lane="tax",pool="lanepgx.Pool[Tax]"} 1
# HELP bulkhead_pool_connections_pending Slots of the lane's connection budget taken with no connection held by a caller: dials in progress or going on after their caller gave up, sessions the server has not ended yet.
# TYPE bulkhead_pool_connections_pending gauge
bulkhead_pool_connections_pending{lane="tax",pool="lanepgx.Pool[Tax]"} 3
# HELP bulkhead_pool_max_connections The lane's connection budget for the pool.
# TYPE bulkhead_pool_max_connections gauge
bulkhead_pool_max_connections{lane="tax",pool="lanepgx.Pool[Tax]"} 4
# HELP bulkhead_pool_waiting_callers Callers waiting for a connection of the lane's pool now.
# TYPE bulkhead_pool_waiting_callers gauge
bulkhead_pool_waiting_callers{lane="tax",pool="lanepgx.Pool[Tax]"} 2
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want),
		"bulkhead_pool_connections_in_use", "bulkhead_pool_connections_pending",
		"bulkhead_pool_max_connections", "bulkhead_pool_waiting_callers"); err != nil {
		t.Error(err)
	}
	col.ObservePool(lanepool.Event{Kind: lanepool.EventClosed, Lane: src.Lane, Resource: src.Resource})
	if n, err := testutil.GatherAndCount(reg, "bulkhead_pool_connections_pending"); err != nil || n != 0 {
		t.Errorf("a closed pool still reports pending connections: %d series, %v", n, err)
	}
}
