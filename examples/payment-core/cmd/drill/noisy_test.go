package main

import (
	"fmt"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// syntheticNoisy is a run of 30 s, the flood from 10 s to 20 s: calm
// merchants served in calm, the flooder refused with 429 and the quota.
func syntheticNoisy(name string, calmDuringFlood time.Duration) *noisyRun {
	r := &noisyRun{name: name, floodFrom: 10 * time.Second, floodTill: 20 * time.Second, end: 30 * time.Second, cleanExit: true}
	for i := range 600 {
		at := time.Duration(i) * 50 * time.Millisecond
		lat := 20 * time.Millisecond
		if at >= r.floodFrom && at < r.floodTill {
			lat = calmDuringFlood
			r.recs = append(r.recs, noisyRec{at: at, lat: time.Millisecond, merchant: floodMerchant, code: http.StatusTooManyRequests, retryAfter: true, quota: "rate quota"})
		}
		r.recs = append(r.recs, noisyRec{at: at, lat: lat, merchant: fmt.Sprintf("m%d", 1+i%10), code: http.StatusOK})
	}
	return r
}

func TestNoisyVerdict(t *testing.T) {
	runs := func(spoil func(noQ, q *noisyRun)) []*noisyRun {
		noQ, q := syntheticNoisy("no-quotas", 500*time.Millisecond), syntheticNoisy("quotas", 21*time.Millisecond)
		spoil(noQ, q)
		return []*noisyRun{noQ, q}
	}
	_, last, pass := noisyReport(noisyShort, runs(func(_, _ *noisyRun) {}))
	if !pass || !strings.HasPrefix(last, "drill: PASS") {
		t.Fatalf("a run meeting every target failed: %s", last)
	}
	for name, spoil := range map[string]func(noQ, q *noisyRun){
		"calm p99 up 15% with quotas": func(_, q *noisyRun) {
			for i := range q.recs {
				if q.recs[i].merchant != floodMerchant && q.recs[i].at >= q.floodFrom && q.recs[i].at < q.floodTill {
					q.recs[i].lat = 23 * time.Millisecond
				}
			}
		},
		"a calm merchant refused with quotas": func(_, q *noisyRun) {
			for i := range q.recs {
				if q.recs[i].merchant == "m3" && q.recs[i].at >= q.floodFrom {
					q.recs[i].code, q.recs[i].lat = http.StatusTooManyRequests, time.Millisecond
					break
				}
			}
		},
		"flooder shed with 503": func(_, q *noisyRun) {
			for i := range q.recs {
				if q.recs[i].merchant == floodMerchant {
					q.recs[i].code = http.StatusServiceUnavailable
					break
				}
			}
		},
		"429 without the quota": func(_, q *noisyRun) {
			for i := range q.recs {
				if q.recs[i].merchant == floodMerchant {
					q.recs[i].quota = ""
				}
			}
		},
		"flood harmless without quotas": func(noQ, _ *noisyRun) {
			for i := range noQ.recs {
				noQ.recs[i].lat = 20 * time.Millisecond
			}
		},
		"unclean exit": func(_, q *noisyRun) { q.cleanExit = false },
	} {
		if _, last, pass := noisyReport(noisyShort, runs(spoil)); pass || !strings.HasPrefix(last, "drill: FAIL") {
			t.Errorf("%s: passed: %s", name, last)
		}
	}
}

// TestRefusedCalmReportCountsAtTheDeadline: a calm merchant refused in
// 1 ms did not get its report faster.
func TestRefusedCalmReportCountsAtTheDeadline(t *testing.T) {
	r := syntheticNoisy("no-quotas", 20*time.Millisecond)
	for i := range r.recs {
		if r.recs[i].merchant != floodMerchant && r.recs[i].at >= r.floodFrom && r.recs[i].at < r.floodTill {
			r.recs[i].code, r.recs[i].lat = http.StatusServiceUnavailable, time.Millisecond
		}
	}
	if f := noisyMeasure(r); f.floodP99 != 2*time.Second || f.calmRefused != 200 {
		t.Errorf("flood p99 %s, %d refused; want 2s (the deadline) and 200", f.floodP99, f.calmRefused)
	}
}

// TestNoisyChartRenders: the chart of two synthetic runs is a PNG.
func TestNoisyChartRenders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "drill.png")
	runs := []*noisyRun{syntheticNoisy("no-quotas", 500*time.Millisecond), syntheticNoisy("quotas", 21*time.Millisecond)}
	if err := noisyChart(path, noisyShort, runs); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("the chart is not a PNG: %v", err)
	}
}
