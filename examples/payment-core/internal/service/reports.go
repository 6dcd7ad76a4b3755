package service

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/bhlint/bhlint/bulkhead/tenant"
)

// Merchant reports: every merchant's dashboard asks for its authorisations
// over a number of days, in one lane all merchants share. It is the
// noisy-neighbour drill's lane (Config.Reports): one merchant asking for
// long reports by the hundred can hold every slot of it, and the tenant
// quotas (Config.TenantQuotas) keep it to its share.
//
// A report's cost is its range: the statement holds its connection
// ReportCostPerDay for each day (pg_sleep), as a scan of that many days of
// a large table would, without spending the drill machine's CPU on it.
const (
	ReportsWorkers, ReportsQueue, ReportsConns = 16, 16, 16
	ReportCostPerDay                           = 3 * time.Millisecond
	// ReportsDeadline is a report's deadline: a 90-day report (270 ms) with
	// room for a queue.
	ReportsDeadline = 2 * time.Second
	// MaxReportDays bounds a report's range, so its cost stays inside the deadline.
	MaxReportDays = 365
)

// The quotas each merchant gets in the reports lane with Config.TenantQuotas.
const (
	// ReportsPerMerchant is the reports one merchant may run at once.
	ReportsPerMerchant = 4
	// ReportDaysPerSecond refills a merchant's bucket: a report takes a
	// token, and its days are charged once it has run.
	ReportDaysPerSecond = 60
	ReportDaysBurst     = 120
)

// Reports is the merchant reports lane: shared by every merchant.
type Reports struct{}

// Spec implements bulkhead.Lane.
func (Reports) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{
		MaxConcurrent: ReportsWorkers,
		MaxQueued:     ReportsQueue,
		QueueTimeout:  time.Second,
		Policy:        bulkhead.PolicyShed,
		RetryAfter:    time.Second,
		MaxRunTime:    MaxRunTime,
	}
}

// ReportRequest is the body of POST /merchant/report.
type ReportRequest struct {
	MerchantID string `json:"merchant_id"`
	Days       int    `json:"days"`
}

// MerchantHeader names the merchant a request is for: the tenant of the
// reports lane, as a gateway in front of the service would set it.
const MerchantHeader = "X-Merchant-ID"

func merchantOf(r *http.Request) string { return r.Header.Get(MerchantHeader) }

// openReports opens the reports lane's pool and executor; with quotas the
// lane's runner admits each merchant against its own first.
func (s *Server) openReports(ctx context.Context, dsn string, quotas bool) (bulkhead.Runner, error) {
	p, err := openLanePool[Reports](ctx, dsn, lanepool.Config{
		MaxConns: ReportsConns, AcquireTimeout: 250 * time.Millisecond,
	})
	if err != nil {
		return nil, err
	}
	s.lanePools[p.Lane()] = p
	s.reportsDB = lanePool[Reports]{p}
	exec := bulkhead.MustExecutor[Reports]()
	if !quotas {
		return exec, nil
	}
	s.reportQuotas, err = tenant.New(exec, tenant.Config{
		MaxConcurrent: ReportsPerMerchant,
		Rate:          ReportDaysPerSecond,
		Burst:         ReportDaysBurst,
	})
	return reportsRunner{exec, s.reportQuotas}, err
}

// reportsRunner is the quotas in front of the executor, keeping the
// executor's stats visible to /debug/lanes.
type reportsRunner struct {
	exec *bulkhead.Executor[Reports]
	*tenant.Lane
}

func (r reportsRunner) Stats() bulkhead.Stats { return r.exec.Stats() }

// report serves POST /merchant/report.
//
//bhlint:lane reports
func report(s *Server, w http.ResponseWriter, r *http.Request) {
	var req ReportRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.MerchantID == "" || req.Days < 1 || req.Days > MaxReportDays {
		http.Error(w, "bad request: want {merchant_id, days (1-365)}", http.StatusBadRequest)
		return
	}
	ctx := r.Context()
	var count int64
	err := s.reportsDB.QueryRow(ctx, `WITH scan AS (SELECT pg_sleep($2)) SELECT count(*) FROM authorizations, scan WHERE merchant_id = $1`,
		req.MerchantID, (time.Duration(req.Days) * ReportCostPerDay).Seconds()).Scan(&count)
	if err != nil {
		fail(w, ctx, "the report", err)
		return
	}
	if s.reportQuotas != nil {
		s.reportQuotas.Charge(ctx, req.Days-1) // the report's own token is paid
	}
	writeJSON(w, http.StatusOK, map[string]any{"merchant_id": req.MerchantID, "days": req.Days, "authorizations": count})
}
