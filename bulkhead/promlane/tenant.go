package promlane

import (
	"cmp"
	"strconv"
	"sync"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/tenant"
	"github.com/prometheus/client_golang/prometheus"
)

// TenantOpts configures a [Tenants] collector.
type TenantOpts struct {
	// Namespace prefixes every metric name. Default "bulkhead".
	Namespace string
	// TopN is how many offenders each lane exports. Default 10.
	TopN int
}

// Tenants exports the per-tenant quotas of lanes (package tenant) without
// one series per tenant: totals per lane, and the lane's top N offenders,
// whose tenant label changes as they do, so a lane never has more than N
// offender series. Read when Prometheus scrapes (Top scans the lane's
// tenants: about 10 ms for 10^6 of them).
//
//	bulkhead_tenant_tracked                  gauge    tenants remembered now
//	bulkhead_tenant_active                   gauge    tenants with calls running
//	bulkhead_tenant_running_calls            gauge    calls admitted by the quotas, running now
//	bulkhead_tenant_admitted_total           counter  calls admitted by the quotas
//	bulkhead_tenant_rejections_total         counter  refusals, by reason (tenant_concurrency, tenant_rate, tenant_fair_share)
//	bulkhead_tenant_top_rejections           gauge    refusals of the top offenders since tracked (labels rank, tenant)
//	bulkhead_tenant_top_running_calls        gauge    calls the top offenders run now (labels rank, tenant)
type Tenants struct {
	tracked, active, running, admitted, rejections *prometheus.Desc
	topRejected, topRunning                        *prometheus.Desc
	topN                                           int

	mu    sync.Mutex
	lanes []*tenant.Lane
}

// NewTenants makes a Tenants collector of lanes; Add adds more.
func NewTenants(o TenantOpts, lanes ...*tenant.Lane) *Tenants {
	ns := cmp.Or(o.Namespace, "bulkhead")
	desc := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName(ns, "tenant", name), help, append([]string{"lane"}, labels...), nil)
	}
	return &Tenants{
		tracked:     desc("tracked", "Tenants of the lane whose quotas are remembered now."),
		active:      desc("active", "Tenants with calls running in the lane now."),
		running:     desc("running_calls", "Calls admitted by the tenants' quotas and running now."),
		admitted:    desc("admitted_total", "Calls admitted by the tenants' quotas."),
		rejections:  desc("rejections_total", "Calls refused by a tenant's quota, by reason.", "reason"),
		topRejected: desc("top_rejections", "Refusals of the lane's top offenders since they were tracked; at most TopN series per lane.", "rank", "tenant"),
		topRunning:  desc("top_running_calls", "Calls the lane's top offenders run now; at most TopN series per lane.", "rank", "tenant"),
		topN:        cmp.Or(o.TopN, 10),
		lanes:       lanes,
	}
}

// Add starts exporting another lane's tenants.
func (c *Tenants) Add(l *tenant.Lane) {
	c.mu.Lock()
	c.lanes = append(c.lanes, l)
	c.mu.Unlock()
}

// Describe implements prometheus.Collector.
func (c *Tenants) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.tracked, c.active, c.running, c.admitted, c.rejections, c.topRejected, c.topRunning} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *Tenants) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	lanes := append([]*tenant.Lane(nil), c.lanes...)
	c.mu.Unlock()
	for _, l := range lanes {
		name := l.Spec().Name
		metric := func(d *prometheus.Desc, t prometheus.ValueType, v float64, labels ...string) {
			ch <- prometheus.MustNewConstMetric(d, t, v, append([]string{name}, labels...)...)
		}
		tot := l.Totals()
		metric(c.tracked, prometheus.GaugeValue, float64(tot.Tracked))
		metric(c.active, prometheus.GaugeValue, float64(tot.Active))
		metric(c.running, prometheus.GaugeValue, float64(tot.Running))
		metric(c.admitted, prometheus.CounterValue, float64(tot.Admitted))
		for _, r := range bulkhead.TenantReasons {
			metric(c.rejections, prometheus.CounterValue, float64(tot.Rejected[r]), r.String())
		}
		for i, o := range l.Top(c.topN) {
			rank := strconv.Itoa(i + 1)
			metric(c.topRejected, prometheus.GaugeValue, float64(o.Rejected), rank, o.Tenant)
			metric(c.topRunning, prometheus.GaugeValue, float64(o.Running), rank, o.Tenant)
		}
	}
}
