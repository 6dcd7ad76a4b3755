package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/bhlint/bhlint/examples/payment-core/internal/service"
)

func TestClassify(t *testing.T) {
	ra := http.Header{"Retry-After": {"5"}}
	for _, c := range []struct {
		name string
		res  vegeta.Result
		lane string
		want outcome
	}{
		{"served", vegeta.Result{Code: 200, Latency: 10 * time.Millisecond, Body: []byte(`{"approved":true}`)}, "card_auth", outOK},
		{"tax from the api", vegeta.Result{Code: 200, Body: []byte(`{"source":"api","tax_cents":7}`)}, "tax", outOK},
		{"tax from the table", vegeta.Result{Code: 200, Body: []byte(`{"source":"compensation","tax_cents":7}`)}, "tax", outFallback},
		{"pending fraud", vegeta.Result{Code: 202, Body: []byte(`{"result":"pending_fraud"}`)}, "fraud", outFallback},
		{"shed", vegeta.Result{Code: 503, Headers: ra}, "tax", outShed},
		{"throttled", vegeta.Result{Code: 429, Headers: ra}, "card_auth", outShed},
		{"503 without Retry-After", vegeta.Result{Code: 503}, "tax", outError},
		{"deadline", vegeta.Result{Code: 504}, "card_auth", outError},
		{"client timeout", vegeta.Result{Code: 0, Error: "Post ...: context deadline exceeded (Client.Timeout exceeded while awaiting headers)"}, "tax", outHung},
		{"refused", vegeta.Result{Code: 0, Error: "connection refused"}, "tax", outError},
		{"late", vegeta.Result{Code: 200, Latency: 3 * time.Second}, "card_auth", outHung},
	} {
		if got := classify(&c.res, c.lane, time.Second); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, outcomeNames[got], outcomeNames[c.want])
		}
	}
}

func TestQuantile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(101-i)*time.Millisecond)
	}
	if q := quantile(d, 0.99); q != 99*time.Millisecond {
		t.Errorf("p99 = %s", q)
	}
	if q := quantile(d, 0.5); q != 50*time.Millisecond {
		t.Errorf("p50 = %s", q)
	}
	if q := quantile(nil, 0.5); q != 0 {
		t.Errorf("empty p50 = %s", q)
	}
}

// syntheticRun is a bulkhead run that meets every target.
func syntheticRun() *run {
	r := &run{mode: "bulkhead", faultStart: 10 * time.Second, faultEnd: 20 * time.Second, end: 30 * time.Second,
		recs: map[string][]rec{}, expected: map[string]int{}, recovery: 1500 * time.Millisecond}
	for _, lane := range lanes {
		for i := range 300 {
			out := outOK
			if lane == "tax" && i >= 100 && i < 200 {
				out = outShed
			}
			r.recs[lane] = append(r.recs[lane], rec{at: time.Duration(i) * 100 * time.Millisecond, lat: 20 * time.Millisecond, out: out})
		}
		r.expected[lane] = 300
	}
	r.final.Routes = map[string]service.RouteSnapshot{"tax": {Shed: 100, ShedP99us: 300}}
	return r
}

func TestVerdict(t *testing.T) {
	cfg := config{scenario: scenarios["tax-slow"], scale: 0.1, fault: 10 * time.Second, faultLat: 8 * time.Second}
	if j := verdict(cfg, nil, syntheticRun()); !j.pass || j.latencyOnly || !strings.HasPrefix(j.last, "drill: PASS") {
		t.Fatalf("a run meeting every target failed: %v\n%s", j.checks, j.last)
	}
	latency := map[string]bool{"slow card_auth": true, "slow shed": true}
	for name, spoil := range map[string]func(*run){
		"slow recovery": func(r *run) { r.recovery = 6 * time.Second },
		"no recovery":   func(r *run) { r.recovery = -1 },
		"slow card_auth": func(r *run) {
			r.recs["card_auth"][150].lat = 2 * time.Second
			r.recs["card_auth"][151].lat = 2 * time.Second
		},
		"slow shed":      func(r *run) { r.final.Routes["tax"] = service.RouteSnapshot{Shed: 100, ShedP99us: 6000} },
		"a hung request": func(r *run) { r.recs["fraud"][5].out = outHung },
		"orphaned conn":  func(r *run) { r.leftAfterExit = 1 },
		"over budget": func(r *run) {
			r.pgSamples = []pgSample{{at: time.Second, byApp: map[string]pgCount{"tax": {Total: 6}}}}
		},
		"load not driven": func(r *run) { r.expected["card_auth"] = 1000 },
		"card_auth turned away": func(r *run) {
			for i := 100; i < 110; i++ {
				r.recs["card_auth"][i].out = outShed
			}
		},
	} {
		r := syntheticRun()
		spoil(r)
		j := verdict(cfg, nil, r)
		if j.pass || !strings.HasPrefix(j.last, "drill: FAIL") {
			t.Errorf("%s: passed: %s", name, j.last)
		}
		// Only a missed latency target earns the short form's second run.
		if j.latencyOnly != latency[name] {
			t.Errorf("%s: latencyOnly = %v, want %v", name, j.latencyOnly, latency[name])
		}
	}
}

func TestSplitModes(t *testing.T) {
	if got := splitModes("before,,bulkhead"); len(got) != 2 || got[0] != "before" || got[1] != "bulkhead" {
		t.Errorf("splitModes = %q", got)
	}
}
