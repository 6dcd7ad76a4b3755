package promlane_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/promlane"
	"github.com/bhlint/bhlint/bulkhead/tenant"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

type Reports struct{}

func (Reports) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 8} }

// TestTenantsExportsTopOffendersNotEveryTenant: 1,000 tenants, two of them
// refused; the export has the totals and the top two, not 1,000 series.
func TestTenantsExportsTopOffendersNotEveryTenant(t *testing.T) {
	l := tenant.MustNew(bulkhead.MustExecutor[Reports](), tenant.Config{MaxConcurrent: 1, ContendedAt: -1})
	for i := range 1000 {
		tk, err := l.Admit(fmt.Sprintf("t%d", i))
		if err != nil {
			t.Fatal(err)
		}
		tk.Done()
	}
	held := []tenant.Ticket{}
	for _, key := range []string{"flood", "slow"} {
		tk, err := l.Admit(key)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, tk)
	}
	for _, key := range []string{"flood", "flood", "flood", "slow"} {
		if _, err := l.Admit(key); err == nil {
			t.Fatalf("%s was not refused", key)
		}
	}
	col := promlane.NewTenants(promlane.TenantOpts{TopN: 2}, l)
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(col)
	want := `
# HELP bulkhead_tenant_active Tenants with calls running in the lane now.
# TYPE bulkhead_tenant_active gauge
bulkhead_tenant_active{lane="reports"} 2
# HELP bulkhead_tenant_admitted_total Calls admitted by the tenants' quotas.
# TYPE bulkhead_tenant_admitted_total counter
bulkhead_tenant_admitted_total{lane="reports"} 1002
# HELP bulkhead_tenant_rejections_total Calls refused by a tenant's quota, by reason.
# TYPE bulkhead_tenant_rejections_total counter
bulkhead_tenant_rejections_total{lane="reports",reason="tenant_concurrency"} 4
bulkhead_tenant_rejections_total{lane="reports",reason="tenant_fair_share"} 0
bulkhead_tenant_rejections_total{lane="reports",reason="tenant_rate"} 0
# HELP bulkhead_tenant_running_calls Calls admitted by the tenants' quotas and running now.
# TYPE bulkhead_tenant_running_calls gauge
bulkhead_tenant_running_calls{lane="reports"} 2
# HELP bulkhead_tenant_top_rejections Refusals of the lane's top offenders since they were tracked; at most TopN series per lane.
# TYPE bulkhead_tenant_top_rejections gauge
bulkhead_tenant_top_rejections{lane="reports",rank="1",tenant="flood"} 3
bulkhead_tenant_top_rejections{lane="reports",rank="2",tenant="slow"} 1
# HELP bulkhead_tenant_top_running_calls Calls the lane's top offenders run now; at most TopN series per lane.
# TYPE bulkhead_tenant_top_running_calls gauge
bulkhead_tenant_top_running_calls{lane="reports",rank="1",tenant="flood"} 1
bulkhead_tenant_top_running_calls{lane="reports",rank="2",tenant="slow"} 1
# HELP bulkhead_tenant_tracked Tenants of the lane whose quotas are remembered now.
# TYPE bulkhead_tenant_tracked gauge
bulkhead_tenant_tracked{lane="reports"} 1002
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want)); err != nil {
		t.Error(err)
	}
	for _, tk := range held {
		tk.Done()
	}
}
