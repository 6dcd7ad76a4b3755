package promlane

import (
	"slices"
	"sync"

	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/prometheus/client_golang/prometheus"
)

// Pool metrics, labelled by lane and pool (the pool's type, e.g.
// "lanedb.DB[Tax]"; lanehttp clients add the host):
//
//	bulkhead_pool_connections_in_use       gauge      connections held by callers now
//	bulkhead_pool_connections_idle         gauge      connections open and free now
//	bulkhead_pool_waiting_callers          gauge      callers waiting for a connection now
//	bulkhead_pool_connections_pending      gauge      budget slots taken with no connection held (dials, sessions not yet ended)
//	bulkhead_pool_max_connections          gauge      the lane's connection budget
//	bulkhead_pool_acquire_wait_seconds     histogram  how long successful acquires waited
//	bulkhead_pool_acquire_timeouts_total   counter    acquires that ran out of time (acquire timeout or caller deadline)
//	bulkhead_pool_acquire_failures_total   counter    failed acquires, by reason
//	bulkhead_pool_leaks_total              counter    connections held past the leak threshold
//	bulkhead_pool_cross_lane_total         counter    uses by another lane's work, by caller lane
//
// Pass the Collector to a pool in lanepool.Config.Observers.
type poolMetrics struct {
	inUse, idle, waiting, pending, budget *prometheus.Desc

	wait      *prometheus.HistogramVec
	timeouts  *prometheus.CounterVec
	failures  *prometheus.CounterVec
	leaks     *prometheus.CounterVec
	crossLane *prometheus.CounterVec

	mu      sync.Mutex
	sources []lanepool.Source
}

func newPoolMetrics(ns string, buckets []float64) *poolMetrics {
	labels := []string{"lane", "pool"}
	desc := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName(ns, "pool", name), help, labels, nil)
	}
	counter := func(name, help string, extra ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Subsystem: "pool", Name: name, Help: help}, append(labels, extra...))
	}
	return &poolMetrics{
		inUse:   desc("connections_in_use", "Connections of the lane's pool held by callers now."),
		idle:    desc("connections_idle", "Connections of the lane's pool open and free now."),
		waiting: desc("waiting_callers", "Callers waiting for a connection of the lane's pool now."),
		pending: desc("connections_pending", "Slots of the lane's connection budget taken with no connection held by a caller: dials in progress or going on after their caller gave up, sessions the server has not ended yet."),
		budget:  desc("max_connections", "The lane's connection budget for the pool."),
		wait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: ns, Subsystem: "pool", Name: "acquire_wait_seconds",
			Help: "How long successful acquires waited for a connection.", Buckets: buckets,
		}, labels),
		timeouts:  counter("acquire_timeouts_total", "Acquires that ran out of time: the acquire timeout or the caller's deadline."),
		failures:  counter("acquire_failures_total", "Acquires that got no connection, by reason.", "reason"),
		leaks:     counter("leaks_total", "Connections held longer than the pool's leak threshold."),
		crossLane: counter("cross_lane_total", "Uses of the pool by work of another lane, by that lane.", "caller"),
	}
}

// ObservePool implements lanepool.Observer.
func (c *Collector) ObservePool(e lanepool.Event) {
	p := c.pools
	switch e.Kind {
	case lanepool.EventAttached:
		p.mu.Lock()
		p.sources = append(p.sources, e.Source)
		p.mu.Unlock()
		p.wait.WithLabelValues(e.Lane, e.Resource)
		p.timeouts.WithLabelValues(e.Lane, e.Resource)
		p.leaks.WithLabelValues(e.Lane, e.Resource)
		for _, r := range lanepool.Reasons {
			p.failures.WithLabelValues(e.Lane, e.Resource, r.String())
		}
	case lanepool.EventClosed:
		p.mu.Lock()
		p.sources = slices.DeleteFunc(p.sources, func(s lanepool.Source) bool {
			st := s.PoolStats()
			return st.Lane == e.Lane && st.Resource == e.Resource
		})
		p.mu.Unlock()
	case lanepool.EventAcquired:
		p.wait.WithLabelValues(e.Lane, e.Resource).Observe(e.Wait.Seconds())
	case lanepool.EventAcquireFailed:
		p.failures.WithLabelValues(e.Lane, e.Resource, e.Reason.String()).Inc()
		if e.Reason == lanepool.ReasonTimeout || e.Reason == lanepool.ReasonDeadline {
			p.timeouts.WithLabelValues(e.Lane, e.Resource).Inc()
		}
	case lanepool.EventLeak:
		p.leaks.WithLabelValues(e.Lane, e.Resource).Inc()
	case lanepool.EventCrossLane:
		p.crossLane.WithLabelValues(e.Lane, e.Resource, e.Caller).Inc()
	}
}

func (p *poolMetrics) describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{p.inUse, p.idle, p.waiting, p.pending, p.budget} {
		ch <- d
	}
	p.wait.Describe(ch)
	p.timeouts.Describe(ch)
	p.failures.Describe(ch)
	p.leaks.Describe(ch)
	p.crossLane.Describe(ch)
}

func (p *poolMetrics) collect(ch chan<- prometheus.Metric) {
	p.mu.Lock()
	srcs := slices.Clone(p.sources)
	p.mu.Unlock()
	for _, src := range srcs {
		s := src.PoolStats()
		for d, v := range map[*prometheus.Desc]int{p.inUse: s.InUse, p.idle: s.Idle, p.waiting: s.Waiting, p.pending: s.Pending, p.budget: s.Budget} {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, float64(v), s.Lane, s.Resource)
		}
	}
	p.wait.Collect(ch)
	p.timeouts.Collect(ch)
	p.failures.Collect(ch)
	p.leaks.Collect(ch)
	p.crossLane.Collect(ch)
}
