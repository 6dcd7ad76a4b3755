// Package promlane exports bulkhead lanes as Prometheus metrics.
//
//	col := promlane.New(promlane.Opts{})
//	prometheus.MustRegister(col)
//	tax := bulkhead.MustExecutor[Tax](bulkhead.WithObserver(col))
//
// Metrics, all labelled by lane (namespace "bulkhead" by default):
//
//	bulkhead_active_calls              gauge      calls running now
//	bulkhead_queued_calls              gauge      callers waiting now
//	bulkhead_max_concurrent_calls      gauge      the lane's MaxConcurrent
//	bulkhead_queue_capacity_calls      gauge      the lane's MaxQueued
//	bulkhead_state                     gauge      1 for the lane's current state, 0 for the others (label state)
//	bulkhead_queue_wait_seconds        histogram  time admitted work spent queued (0 when it did not queue)
//	bulkhead_rejections_total          counter    rejections, by reason (queue_full, wait_timeout, deadline, saturated, breaker_open)
//	bulkhead_state_transitions_total   counter    state changes, by the state entered (label to)
//	bulkhead_breaker_state             gauge      1 for the lane's breaker state (closed, open, half_open), 0 for the others; closed without a breaker
//	bulkhead_breaker_transitions_total counter    breaker state changes, by the state entered (label to)
//	bulkhead_stuck_calls               gauge      calls running past the lane's MaxRunTime now (cancelled, slot still held)
//	bulkhead_stuck_total               counter    calls that ran past MaxRunTime
//	bulkhead_recovery_lagging          gauge      1 while the lane reports recovery lag (ALERT_BULKHEAD_RECOVERY_LAG)
//	bulkhead_recovery_lag_total        counter    recovery lag reports
//
// rules.yml, next to this file and embedded as [Rules], holds Prometheus
// alerting rules over these metrics.
//
// Lane pools (lanedb, lanepgx, lanehttp) add the bulkhead_pool_* metrics
// listed in pool.go.
//
// Gauges are read from the executors when Prometheus scrapes; counters and
// the histogram are updated from the executors' events.
package promlane

import (
	"cmp"
	"slices"
	"sync"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/prometheus/client_golang/prometheus"
)

// DefaultBuckets for the queue wait histogram, in seconds: from half a
// millisecond (the fail-fast range) to five seconds (a long queue timeout).
var DefaultBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5}

// Opts configures a Collector.
type Opts struct {
	// Namespace prefixes every metric name. Default "bulkhead".
	Namespace string
	// Buckets of the queue wait histogram, in seconds. Default DefaultBuckets.
	Buckets []float64
}

// Collector is a prometheus.Collector, a bulkhead.Observer and a
// lanepool.Observer: pass it to bulkhead.WithObserver for every executor,
// and in lanepool.Config.Observers for every lane pool, it should export.
type Collector struct {
	active, queued, limit, queueCap, state *prometheus.Desc
	breaker, stuck, lagging                *prometheus.Desc

	wait                               *prometheus.HistogramVec
	rejections                         *prometheus.CounterVec
	transitions                        *prometheus.CounterVec
	breakerMoves, stuckTotal, lagTotal *prometheus.CounterVec

	mu      sync.Mutex
	sources []bulkhead.StatsSource

	pools *poolMetrics // lane pools' metrics: see pool.go
}

// New makes a Collector.
func New(o Opts) *Collector {
	ns := cmp.Or(o.Namespace, "bulkhead")
	if o.Buckets == nil {
		o.Buckets = DefaultBuckets
	}
	lane := []string{"lane"}
	desc := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName(ns, "", name), help, append(lane, labels...), nil)
	}
	return &Collector{
		pools:    newPoolMetrics(ns, o.Buckets),
		active:   desc("active_calls", "Calls running in the lane now."),
		queued:   desc("queued_calls", "Callers waiting for a slot in the lane now."),
		limit:    desc("max_concurrent_calls", "How many calls the lane may run at once."),
		queueCap: desc("queue_capacity_calls", "How many callers may wait for a slot in the lane."),
		state:    desc("state", "The lane's state: 1 for the current one (NORMAL, SATURATED, RECOVERING), 0 for the others.", "state"),
		wait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: ns, Name: "queue_wait_seconds",
			Help:    "Time admitted work spent waiting for a slot; 0 when a slot was free.",
			Buckets: o.Buckets,
		}, lane),
		rejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Name: "rejections_total",
			Help: "Work the lane rejected without starting it, by reason.",
		}, []string{"lane", "reason"}),
		transitions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Name: "state_transitions_total",
			Help: "Changes of the lane's state, by the state entered.",
		}, []string{"lane", "to"}),
		breaker: desc("breaker_state", "The lane's circuit breaker: 1 for the current state (closed, open, half_open), 0 for the others; closed for a lane without one.", "state"),
		stuck:   desc("stuck_calls", "Calls running past the lane's MaxRunTime now: cancelled, their slots held until they return."),
		lagging: desc("recovery_lagging", "1 while the lane reports recovery lag (ALERT_BULKHEAD_RECOVERY_LAG): its dependency answers again but the lane is not back below its baseline."),
		breakerMoves: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Name: "breaker_transitions_total",
			Help: "Changes of the lane's circuit breaker state, by the state entered.",
		}, []string{"lane", "to"}),
		stuckTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Name: "stuck_total",
			Help: "Calls that ran past the lane's MaxRunTime and were cancelled.",
		}, lane),
		lagTotal: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: ns, Name: "recovery_lag_total",
			Help: "Times the lane reported recovery lag (ALERT_BULKHEAD_RECOVERY_LAG) and reset its pools.",
		}, lane),
	}
}

// Observe implements bulkhead.Observer.
func (c *Collector) Observe(e bulkhead.Event) {
	switch e.Kind {
	case bulkhead.EventAttached:
		c.attach(e.Lane, e.Source)
	case bulkhead.EventAdmitted:
		c.wait.WithLabelValues(e.Lane).Observe(e.Wait.Seconds())
	case bulkhead.EventRejected:
		c.rejections.WithLabelValues(e.Lane, e.Reason.String()).Inc()
	case bulkhead.EventStateChanged:
		c.transitions.WithLabelValues(e.Lane, e.To.String()).Inc()
	case bulkhead.EventBreakerChanged:
		c.breakerMoves.WithLabelValues(e.Lane, e.BreakerTo.String()).Inc()
	case bulkhead.EventStuck:
		c.stuckTotal.WithLabelValues(e.Lane).Inc()
	case bulkhead.EventRecoveryLag:
		c.lagTotal.WithLabelValues(e.Lane).Inc()
	}
}

// attach starts exporting a lane, with every series present from the start
// so that rate() and absent() work before the first rejection.
func (c *Collector) attach(lane string, src bulkhead.StatsSource) {
	c.mu.Lock()
	c.sources = append(c.sources, src)
	c.mu.Unlock()
	c.wait.WithLabelValues(lane)
	for _, r := range bulkhead.Reasons {
		c.rejections.WithLabelValues(lane, r.String())
	}
	for _, s := range bulkhead.States {
		c.transitions.WithLabelValues(lane, s.String())
	}
	for _, s := range bulkhead.BreakerStates {
		c.breakerMoves.WithLabelValues(lane, s.String())
	}
	c.stuckTotal.WithLabelValues(lane)
	c.lagTotal.WithLabelValues(lane)
}

// Describe implements prometheus.Collector.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.active, c.queued, c.limit, c.queueCap, c.state, c.breaker, c.stuck, c.lagging} {
		ch <- d
	}
	c.wait.Describe(ch)
	c.rejections.Describe(ch)
	c.transitions.Describe(ch)
	c.breakerMoves.Describe(ch)
	c.stuckTotal.Describe(ch)
	c.lagTotal.Describe(ch)
	c.pools.describe(ch)
}

// Collect implements prometheus.Collector.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	for _, s := range c.lanes() {
		gauge := func(d *prometheus.Desc, v int, labels ...string) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v), append([]string{s.Lane}, labels...)...)
		}
		gauge(c.active, s.Active)
		gauge(c.queued, s.Queued)
		gauge(c.limit, s.Limit)
		gauge(c.queueCap, s.QueueCapacity)
		for _, st := range bulkhead.States {
			gauge(c.state, boolInt(s.State == st), st.String())
		}
		for _, st := range bulkhead.BreakerStates {
			gauge(c.breaker, boolInt(s.Breaker == st), st.String())
		}
		gauge(c.stuck, s.Stuck)
		gauge(c.lagging, boolInt(s.Lagging))
	}
	c.wait.Collect(ch)
	c.rejections.Collect(ch)
	c.transitions.Collect(ch)
	c.breakerMoves.Collect(ch)
	c.stuckTotal.Collect(ch)
	c.lagTotal.Collect(ch)
	c.pools.collect(ch)
}

// lanes reads every attached executor, adding up executors that share a lane
// name (two executors of one lane type) so each series appears once.
func (c *Collector) lanes() []bulkhead.Stats {
	c.mu.Lock()
	srcs := slices.Clone(c.sources)
	c.mu.Unlock()
	byLane := map[string]int{}
	var out []bulkhead.Stats
	for _, src := range srcs {
		s := src.Stats()
		i, seen := byLane[s.Lane]
		if !seen {
			byLane[s.Lane] = len(out)
			out = append(out, s)
			continue
		}
		sum := &out[i]
		sum.Active += s.Active
		sum.Queued += s.Queued
		sum.Limit += s.Limit
		sum.QueueCapacity += s.QueueCapacity
		sum.State = worse(sum.State, s.State)
		sum.Stuck += s.Stuck
		sum.Lagging = sum.Lagging || s.Lagging
		if s.Breaker != bulkhead.BreakerClosed && sum.Breaker != bulkhead.BreakerOpen {
			sum.Breaker = s.Breaker // open over half-open over closed
		}
	}
	return out
}

// worse orders states by how much attention they need.
func worse(a, b bulkhead.State) bulkhead.State {
	rank := map[bulkhead.State]int{bulkhead.StateNormal: 0, bulkhead.StateRecovering: 1, bulkhead.StateSaturated: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
