package service

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/lanebreaker"
)

// TestFraudOutageOpensTheBreakerAndQueuesEveryScore: the fraud service
// answers 503. Every score is answered 202 pending_fraud (the failed calls
// too: the breaker is told of the failure through failureReporting); after
// 20 failures the breaker opens, and the queue does not call the vendor
// while it is open. Once the vendor is back, probes close the breaker and
// every queued score is done: none lost.
func TestFraudOutageOpensTheBreakerAndQueuesEveryScore(t *testing.T) {
	dsn := testDSN(t)
	ctx := context.Background()
	if err := Setup(ctx, dsn, false); err != nil {
		t.Fatal(err)
	}
	var down atomic.Bool
	var calls atomic.Int64
	down.Store(true)
	fraudAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if down.Load() {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "vendor down", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(`{"score":12}`))
	}))
	defer fraudAPI.Close()
	svc, err := New(ctx, Config{Mode: ModeBulkhead, DSN: dsn, CardURL: fraudAPI.URL, FraudURL: fraudAPI.URL, TaxURL: fraudAPI.URL,
		FraudBreaker: lanebreaker.Config{OpenFor: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := httptest.NewServer(svc)
	defer srv.Close()

	score := func(i int) (int, string) {
		t.Helper()
		resp, err := http.Post(srv.URL+"/fraud/score", "application/json", strings.NewReader(fmt.Sprintf(`{"card_hash":"outage-%d","amount_cents":100}`, i)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&body)
		r, _ := body["result"].(string)
		return resp.StatusCode, r
	}
	i := 0
	for ; i < 21; i++ {
		if code, r := score(i); code != http.StatusAccepted || r != "pending_fraud" {
			t.Fatalf("score %d with the vendor down: %d %q; want 202 pending_fraud", i, code, r)
		}
	}
	if b := svc.Snapshot().Lanes["fraud"].Breaker; b != "open" {
		t.Fatalf("after 21 failed calls the breaker is %q; want open", b)
	}
	before := calls.Load()
	if code, r := score(i); code != http.StatusAccepted || r != "pending_fraud" {
		t.Fatalf("score with the breaker open: %d %q; want 202 pending_fraud", code, r)
	}
	i++
	if n := calls.Load() - before; n != 0 {
		t.Errorf("the vendor was called %d times with the breaker open; want 0 (neither the request nor the queue)", n)
	}
	if q := svc.Snapshot().FraudQueue; q.Queued != int64(i) || q.Scored != 0 {
		t.Fatalf("queue with the breaker open: %+v; want %d queued, none scored", q, i)
	}

	down.Store(false)
	deadline := time.Now().Add(10 * time.Second)
	for svc.Snapshot().Lanes["fraud"].Breaker != "closed" && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		score(i) // live traffic: the half-open breaker's probes
		i++
	}
	for time.Now().Before(deadline) {
		if q := svc.Snapshot().FraudQueue; q.Len == 0 && q.Scored == q.Queued {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	q := svc.Snapshot().FraudQueue
	if q.Len != 0 || q.Scored != q.Queued || q.Dropped != 0 || q.Queued < 22 {
		t.Errorf("after the vendor recovered: %+v; want every queued score (at least 22) done", q)
	}
}
