package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"github.com/bhlint/bhlint/examples/payment-core/internal/tax"
)

func TestLaneSpecsAreTheSpecs(t *testing.T) {
	card, err := bulkhead.NewExecutor[CardAuth]()
	if err != nil {
		t.Fatal(err)
	}
	fraud, err := bulkhead.NewExecutor[Fraud]()
	if err != nil {
		t.Fatal(err)
	}
	taxLane, err := bulkhead.NewExecutor[Tax]()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bulkhead.NewExecutor[Shared](); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		spec          bulkhead.LaneSpec
		name          string
		workers, qlen int
		status        int
	}{
		{card.Spec(), "card_auth", 75, 10, http.StatusTooManyRequests},
		{fraud.Spec(), "fraud", 30, 5, http.StatusTooManyRequests},
		{taxLane.Spec(), "tax", 15, 0, http.StatusServiceUnavailable},
	} {
		if c.spec.Name != c.name || c.spec.MaxConcurrent != c.workers || c.spec.MaxQueued != c.qlen || c.spec.Policy.Status() != c.status {
			t.Errorf("lane %s: spec %+v; want %d workers, queue %d, status %d", c.name, c.spec, c.workers, c.qlen, c.status)
		}
	}
	if taxLane.Spec().RetryAfter != 5*time.Second {
		t.Errorf("tax Retry-After %s, want 5s", taxLane.Spec().RetryAfter)
	}
}

func TestTaxShedCarriesRetryAfterAndTheVerifiedEstimate(t *testing.T) {
	rates, err := tax.LoadRates()
	if err != nil {
		t.Fatal(err)
	}
	rej := &bulkhead.Rejection{Lane: "tax", Reason: bulkhead.ReasonSaturated, RetryAfter: 5 * time.Second,
		Status: http.StatusServiceUnavailable, Code: "ERR_TAX_BULKHEAD_SATURATED"}
	rec := httptest.NewRecorder()
	writeTaxShed(rec, rej, rates, QuoteRequest{OrderID: "o1", Jurisdiction: "US-CA", AmountCents: 10_000})
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "5" ||
		rec.Header().Get("Content-Type") != "application/problem+json" {
		t.Fatalf("shed answered %d, Retry-After %q, Content-Type %q; want 503, 5, application/problem+json",
			rec.Code, rec.Header().Get("Retry-After"), rec.Header().Get("Content-Type"))
	}
	var body taxShed
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	if body.Code != "ERR_TAX_BULKHEAD_SATURATED" || body.Estimate == nil || body.Estimate.TaxCents != 725 || body.Estimate.Table != "us-sales-tax" {
		t.Errorf("shed body %s; want code ERR_TAX_BULKHEAD_SATURATED and an estimate of 725 from us-sales-tax", rec.Body)
	}

	rec = httptest.NewRecorder()
	writeTaxShed(rec, rej, rates, QuoteRequest{OrderID: "o1", Jurisdiction: "US-OR", AmountCents: 10_000})
	if strings.Contains(rec.Body.String(), `"estimate":`) {
		t.Errorf("a jurisdiction the table lacks got an estimate: %s", rec.Body)
	}
}

func TestPoolRejectionIsTheLanesRejection(t *testing.T) {
	for _, c := range []struct {
		lane   string
		status int
		code   string
	}{
		{"card_auth", http.StatusTooManyRequests, "ERR_CARD_AUTH_BULKHEAD_SATURATED"},
		{"tax", http.StatusServiceUnavailable, "ERR_TAX_BULKHEAD_SATURATED"},
	} {
		rec := httptest.NewRecorder()
		err := fmt.Errorf("merchant lookup: %w", &lanepool.AcquireError{Lane: c.lane, Reason: lanepool.ReasonTimeout, RetryAfter: 1500 * time.Millisecond})
		fail(rec, context.Background(), "merchant lookup", err)
		if rec.Code != c.status || rec.Header().Get("Retry-After") != "2" || !strings.Contains(rec.Body.String(), c.code) {
			t.Errorf("%s: %d, Retry-After %q, %s; want %d, 2, %s", c.lane, rec.Code, rec.Header().Get("Retry-After"), rec.Body, c.status, c.code)
		}
	}
	rec := httptest.NewRecorder()
	fail(rec, context.Background(), "x", &lanepool.AcquireError{Lane: "tax", Reason: lanepool.ReasonConnect, Err: errors.New("refused")})
	if rec.Code != http.StatusBadGateway {
		t.Errorf("a failed dial answered %d, want 502", rec.Code)
	}
}

func TestRoutes(t *testing.T) {
	for path, want := range map[string]string{"/card/authorize": routeCardAuth, "/fraud/score": routeFraud, "/tax/quote": routeTax, "/healthz": routeNone} {
		if got := routeOf(path); got != want {
			t.Errorf("routeOf(%q) = %q, want %q", path, got, want)
		}
	}
	if deadlineOf(routeTax, ModeBulkhead) != TaxDeadline || deadlineOf(routeTax, ModeBefore) != LegacyTaxDeadline {
		t.Error("tax deadlines")
	}
}

// testDSN returns the PostgreSQL DSN, skipping the test if no server
// answers (failing instead when BHLINT_REQUIRE_SERVICES=1).
func testDSN(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("BHLINT_PG_DSN")
	if dsn == "" {
		dsn = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		if os.Getenv("BHLINT_REQUIRE_SERVICES") == "1" {
			t.Fatalf("PostgreSQL at %s: %v", dsn, err)
		}
		t.Skipf("no PostgreSQL at %s: %v", dsn, err)
	}
	conn.Close(ctx)
	return dsn
}

// TestBulkheadModeShedsTaxAndKeepsCardAuth is the drill in miniature: with
// the tax API hanging, the tax lane fills (15), the next quote is shed at
// once with 503 and the verified estimate, card authorisation still
// answers, the 15 stuck quotes fall back to the verified table after the
// API timeout, and the tax lane never holds more than its 5 connections.
func TestBulkheadModeShedsTaxAndKeepsCardAuth(t *testing.T) {
	dsn := testDSN(t)
	ctx := context.Background()
	if err := Setup(ctx, dsn, false); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"approved":true,"score":10}`))
	}))
	defer fast.Close()
	slowTax := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer slowTax.Close()
	defer close(release)

	svc, err := New(ctx, Config{Mode: ModeBulkhead, DSN: dsn, CardURL: fast.URL, FraudURL: fast.URL, TaxURL: slowTax.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := httptest.NewServer(svc)
	defer srv.Close()

	post := func(path, body string) (*http.Response, []byte, time.Duration) {
		start := time.Now()
		resp, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Error(err)
			return nil, nil, 0
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp, []byte(b.String()), time.Since(start)
	}
	quote := `{"order_id":"o42","jurisdiction":"US-CA","amount_cents":10000}`

	var wg sync.WaitGroup
	stuck := make([]string, TaxWorkers)
	for i := range TaxWorkers {
		wg.Go(func() {
			resp, body, _ := post("/tax/quote", quote)
			if resp != nil {
				stuck[i] = resp.Status + " " + string(body)
			}
		})
	}
	deadline := time.Now().Add(time.Second)
	for svc.Snapshot().Routes[routeTax].Active < TaxWorkers && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := svc.Snapshot().Routes[routeTax].Active; n != TaxWorkers {
		t.Fatalf("tax lane has %d running, want %d", n, TaxWorkers)
	}

	resp, body, took := post("/tax/quote", quote)
	if resp == nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "5" ||
		!strings.Contains(string(body), "ERR_TAX_BULKHEAD_SATURATED") || !strings.Contains(string(body), `"tax_cents":725`) {
		t.Errorf("16th quote: %v %s; want 503, Retry-After: 5, ERR_TAX_BULKHEAD_SATURATED and the estimate 725", resp.Status, body)
	}
	if took > 500*time.Millisecond {
		t.Errorf("shedding took %s", took)
	}
	resp, body, _ = post("/card/authorize", `{"merchant_id":"m7","card_hash":"c1","amount_cents":1200}`)
	if resp == nil || resp.StatusCode != http.StatusOK {
		t.Errorf("card authorisation while tax is full: %v %s; want 200", resp.Status, body)
	}
	if n := svc.Snapshot().Pools["tax"].Total; n > TaxConns {
		t.Errorf("tax pool has %d connections, budget %d", n, TaxConns)
	}
	// The lanes' lanepgx pools: opened full, at their budgets, the card_auth
	// one used by the authorisation, none turned away.
	pools := svc.Snapshot().Pools
	for lane, budget := range map[string]int32{"card_auth": CardAuthConns, "fraud": FraudConns, "tax": TaxConns} {
		if p := pools[lane]; p.Max != budget || p.Total != budget || p.Failed != 0 {
			t.Errorf("%s pool %+v; want %d of %d connections open and no failed acquire", lane, p, budget, budget)
		}
	}
	if pools["card_auth"].Acquires < 2 {
		t.Errorf("card_auth pool counted %d acquires; want the authorisation's 2", pools["card_auth"].Acquires)
	}
	var apps int
	if err := svc.taxDB.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, AppName("tax")).Scan(&apps); err != nil || apps != TaxConns {
		t.Errorf("pg_stat_activity shows %d sessions named %s (%v); want %d", apps, AppName("tax"), err, TaxConns)
	}

	wg.Wait() // the stuck quotes end at the API timeout (2 s)
	for i, s := range stuck {
		if !strings.HasPrefix(s, "200") || !strings.Contains(s, `"source":"compensation"`) || !strings.Contains(s, `"tax_cents":725`) {
			t.Errorf("stuck quote %d: %s; want 200 with 725 from the compensation table", i, s)
		}
	}
	if n := svc.Snapshot().Routes[routeTax].Active; n != 0 {
		t.Errorf("tax lane still has %d running", n)
	}
}

// TestFraudDegradesToTheAsyncQueue: with the fraud service hanging, the
// fraud lane fills (30), the next score is answered 202 pending_fraud at
// once and scored later by the async queue.
func TestFraudDegradesToTheAsyncQueue(t *testing.T) {
	dsn := testDSN(t)
	ctx := context.Background()
	if err := Setup(ctx, dsn, false); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	defer unblock()
	fraudAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
			_, _ = w.Write([]byte(`{"score":12}`))
		case <-r.Context().Done():
		}
	}))
	defer fraudAPI.Close()
	svc, err := New(ctx, Config{Mode: ModeBulkhead, DSN: dsn, CardURL: fraudAPI.URL, FraudURL: fraudAPI.URL, TaxURL: fraudAPI.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := httptest.NewServer(svc)
	defer srv.Close()

	var wg sync.WaitGroup
	defer wg.Wait()
	for range FraudWorkers {
		wg.Go(func() {
			resp, err := http.Post(srv.URL+"/fraud/score", "application/json", strings.NewReader(`{"card_hash":"c9","amount_cents":100}`))
			if err == nil {
				resp.Body.Close()
			}
		})
	}
	deadline := time.Now().Add(2 * time.Second)
	for svc.Snapshot().Routes[routeFraud].Active < FraudWorkers && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	resp, err := http.Post(srv.URL+"/fraud/score", "application/json", strings.NewReader(`{"card_hash":"c10","amount_cents":100}`))
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || body["result"] != "pending_fraud" {
		t.Fatalf("score with the fraud lane full: %d %v; want 202 pending_fraud", resp.StatusCode, body)
	}
	unblock()
	for svc.Snapshot().FraudQueue.Scored < 1 && time.Now().Before(deadline.Add(3*time.Second)) {
		time.Sleep(10 * time.Millisecond)
	}
	if q := svc.Snapshot().FraudQueue; q.Scored != 1 || q.Len != 0 {
		t.Errorf("async queue %+v; want the pending score done", q)
	}
}
