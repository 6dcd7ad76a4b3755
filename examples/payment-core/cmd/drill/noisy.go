package main

// The noisy-neighbour drill (-scenario noisy-neighbour): merchants share
// the reports lane (internal/service/reports.go). Calm merchants ask for
// week-long reports at a steady rate; then one merchant floods with 90-day
// reports (13 times the cost of a calm one each): by default (-flood
// backlog) a batch client with 64 workers working off a backlog of 100
// times the reports a calm merchant sends in the window, waiting out every
// Retry-After with jitter; with -flood rate, 100 times a calm merchant's rate, open
// loop, never backing off. Two runs: the lane alone ("no-quotas"), then with
// per-merchant quotas ("quotas"). Targets: without quotas every calm
// merchant's p99 rises; with them the calm merchants' p99 during the flood
// stays within 10% of their calm baseline (the same run's calm phase), none
// of them is refused, and the flooder is answered 429 with Retry-After and
// a problem body naming the quota.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/bhlint/bhlint/examples/payment-core/internal/service"
)

const (
	floodFactor   = 100 // the flooder's rate, in calm merchants' rates
	calmDays      = 7
	floodDays     = 90
	floodMerchant = "m-flood"
	// floodWorkers is the backlog client's concurrency: a batch job's
	// worker pool, four times the lane's slots.
	floodWorkers = 64
	// p99Slack is the target: the calm merchants' p99 during the flood at
	// most 10% above their calm baseline.
	p99Slack = 1.10
)

// noisyPlan is one form of the drill.
type noisyPlan struct {
	merchants int     // calm merchants
	rate      float64 // reports a second, per calm merchant
	calm      time.Duration
	flood     time.Duration
	after     time.Duration
}

var (
	noisyFull  = noisyPlan{merchants: 10, rate: 5, calm: 30 * time.Second, flood: 30 * time.Second, after: 10 * time.Second}
	noisyShort = noisyPlan{merchants: 10, rate: 5, calm: 30 * time.Second, flood: 20 * time.Second, after: 5 * time.Second}
)

// noisyRec is one report request.
type noisyRec struct {
	at, lat    time.Duration
	merchant   string
	code       int
	retryAfter bool
	quota      string // the problem body's quota member, for a 429
	code429    string // the problem body's code, for a 429
}

type noisyRun struct {
	name                 string
	flood                string // backlog or rate
	backlog, worked      int    // backlog: the flooder's reports, and those served
	start                time.Time
	floodFrom, floodTill time.Duration
	end                  time.Duration
	recs                 []noisyRec
	cleanExit            bool
}

// runNoisy runs the drill and returns the process's exit status.
func runNoisy(ctx context.Context, cfg config) int {
	plan := noisyFull
	if cfg.short {
		plan = noisyShort
	}
	var runs []*noisyRun
	for _, name := range []string{"no-quotas", "quotas"} {
		r, err := noisyMode(ctx, cfg, plan, name)
		if err != nil {
			fmt.Printf("drill: ERROR %s run: %v\n", name, err)
			return 2
		}
		runs = append(runs, r)
	}
	text, last, pass := noisyReport(plan, runs)
	if err := os.WriteFile(filepath.Join(cfg.out, "report.txt"), []byte(text), 0o644); err != nil {
		log.Print(err)
	}
	if err := noisyChart(filepath.Join(cfg.out, "drill.png"), plan, runs); err != nil {
		log.Printf("chart: %v", err)
	}
	fmt.Print(text)
	fmt.Println(last)
	if !pass {
		return 1
	}
	return 0
}

func noisyMode(ctx context.Context, cfg config, plan noisyPlan, name string) (*noisyRun, error) {
	args := []string{"-mode", service.ModeBulkhead, "-reports", "-reset", "-addr", serviceAddr, "-dsn", cfg.dsn,
		"-card-url", "http://" + cardAddr, "-fraud-url", "http://" + fraudAddr, "-tax-url", "http://" + taxAddr}
	if name == "quotas" {
		args = append(args, "-tenant-quotas")
	}
	log.Printf("%s run: starting payment-core", name)
	svc, err := startWrapped(ctx, cfg, nil, []string{"GOMAXPROCS=2"}, "payment-core", args...)
	if err != nil {
		return nil, err
	}
	r := &noisyRun{name: name, flood: cfg.flood}
	defer func() {
		if !r.cleanExit {
			svc.stop(5 * time.Second)
		}
	}()
	if err := waitHTTP(ctx, "http://"+serviceAddr+"/healthz", 30*time.Second); err != nil {
		return nil, fmt.Errorf("payment-core did not come up: %w (log: %s)", err, svc.logPath)
	}
	total := plan.calm + plan.flood + plan.after
	r.floodFrom, r.floodTill = plan.calm, plan.calm+plan.flood
	calmRate := plan.rate * float64(plan.merchants)
	floodRate := plan.rate * floodFactor
	r.backlog = int(floodRate * plan.flood.Seconds())
	log.Printf("%s run: %d calm merchants at %.0f/s each (%d-day reports) for %s; from %s to %s %s floods (%s): %s",
		name, plan.merchants, plan.rate, calmDays, total, r.floodFrom, r.floodTill, floodMerchant, r.flood, floodString(plan, r))
	r.start = time.Now()
	var mu sync.Mutex
	var wg sync.WaitGroup
	add := func(rec noisyRec) {
		mu.Lock()
		r.recs = append(r.recs, rec)
		mu.Unlock()
	}
	collect := func(results <-chan *vegeta.Result) {
		for res := range results {
			add(noisyOf(res, r.start))
		}
	}
	timeout := service.ReportsDeadline + hungGrace
	wg.Go(func() { collect(attackWith(calmTargeter(plan.merchants), "calm", calmRate, total, timeout)) })
	wg.Go(func() {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(r.start.Add(r.floodFrom))):
		}
		if r.flood == "rate" {
			collect(attackWith(floodTargeter(), "flood", floodRate, plan.flood, timeout))
			return
		}
		r.worked = workBacklog(ctx, r, timeout, add)
	})
	wg.Wait()
	r.end = time.Since(r.start)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	log.Printf("%s run: stopping payment-core", name)
	r.cleanExit = svc.stop(15 * time.Second)
	return r, nil
}

// floodString says what the flooder sends.
func floodString(plan noisyPlan, r *noisyRun) string {
	if r.flood == "rate" {
		return fmt.Sprintf("%.0f/s (%dx a calm merchant's rate) of %d-day reports, open loop", plan.rate*floodFactor, floodFactor, floodDays)
	}
	return fmt.Sprintf("a backlog of %d %d-day reports (%dx a calm merchant's reports in the window), %d workers, each waiting out Retry-After (+0-50%% jitter)",
		r.backlog, floodDays, floodFactor, floodWorkers)
}

// workBacklog is the flooder as a batch client: floodWorkers workers take
// the backlog's reports in turn and send each until it is served, waiting
// out the Retry-After of every 429 or 503 (with jitter, as a client should),
// until the flood window ends.
// It returns how many reports were served.
func workBacklog(ctx context.Context, r *noisyRun, timeout time.Duration, add func(noisyRec)) int {
	client := &http.Client{Timeout: timeout, Transport: &http.Transport{MaxIdleConnsPerHost: floodWorkers, MaxConnsPerHost: floodWorkers}}
	defer client.CloseIdleConnections()
	end := r.start.Add(r.floodTill)
	var next, served atomic.Int64
	var wg sync.WaitGroup
	for range floodWorkers {
		wg.Go(func() {
			for job := next.Add(1); int(job) <= r.backlog; job = next.Add(1) {
				if !sendUntilServed(ctx, client, r, end, job, add) {
					return
				}
				served.Add(1)
			}
		})
	}
	wg.Wait()
	return int(served.Load())
}

// sendUntilServed sends one report until it is served (true), or the window
// or ctx ends (false).
func sendUntilServed(ctx context.Context, client *http.Client, r *noisyRun, end time.Time, job int64, add func(noisyRec)) bool {
	clientID := fmt.Sprintf("drill-backlog-%d", job)
	body, _ := json.Marshal(service.ReportRequest{MerchantID: floodMerchant, Days: floodDays})
	for time.Now().Before(end) && ctx.Err() == nil {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+serviceAddr+"/merchant/report?merchant="+floodMerchant, bytes.NewReader(body))
		if err != nil {
			return false
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(service.MerchantHeader, floodMerchant)
		req.Header.Set("X-Client-ID", clientID) // one per report: the edge's retry guard counts its retries
		sent := time.Now()
		rec := noisyRec{at: sent.Sub(r.start), merchant: floodMerchant}
		wait := 100 * time.Millisecond // after an error
		if resp, err := client.Do(req); err == nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			rec.code, rec.retryAfter = resp.StatusCode, resp.Header.Get("Retry-After") != ""
			rec.quota, rec.code429 = quotaOf(rec.code, b)
			if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
				wait = time.Duration(secs) * time.Second
			}
		}
		rec.lat = time.Since(sent)
		add(rec)
		if rec.code == http.StatusOK {
			return true
		}
		select {
		case <-ctx.Done():
		case <-time.After(min(jittered(wait), time.Until(end))):
		}
	}
	return false
}

// calmTargeter sends the calm merchants' reports in turn, so each gets
// the same steady rate.
func calmTargeter(merchants int) vegeta.Targeter {
	var n atomic.Uint64
	return func(t *vegeta.Target) error {
		i := n.Add(1)
		return reportTarget(t, fmt.Sprintf("m%d", 1+i%uint64(merchants)), calmDays, i)
	}
}

func floodTargeter() vegeta.Targeter {
	var n atomic.Uint64
	return func(t *vegeta.Target) error {
		return reportTarget(t, floodMerchant, floodDays, n.Add(1))
	}
}

// jittered is wait plus up to half again, at random: a client that honours
// Retry-After without jitter sends its whole pool of workers back at the
// same instant, a burst the service must refuse all at once.
func jittered(wait time.Duration) time.Duration {
	return wait + rand.N(wait/2+1)
}

func reportTarget(t *vegeta.Target, merchant string, days int, i uint64) error {
	t.Method = http.MethodPost
	// The merchant in the query too: vegeta's result keeps the URL, not the headers sent.
	t.URL = "http://" + serviceAddr + "/merchant/report?merchant=" + merchant
	// A client id per request: the edge's retry guard is not what this drill is about.
	t.Header = http.Header{"Content-Type": {"application/json"}, service.MerchantHeader: {merchant},
		"X-Client-ID": {fmt.Sprintf("drill-report-%s-%d", merchant, i)}}
	b, err := json.Marshal(service.ReportRequest{MerchantID: merchant, Days: days})
	t.Body = b
	return err
}

func noisyOf(res *vegeta.Result, start time.Time) noisyRec {
	rec := noisyRec{at: res.Timestamp.Sub(start), lat: res.Latency, code: int(res.Code),
		retryAfter: res.Headers.Get("Retry-After") != ""}
	if _, q, ok := strings.Cut(res.URL, "?merchant="); ok {
		rec.merchant = q
	}
	rec.quota, rec.code429 = quotaOf(rec.code, res.Body)
	return rec
}

// quotaOf is the quota and the code a 429's problem body names.
func quotaOf(code int, body []byte) (quota, problemCode string) {
	var problem struct {
		Quota string `json:"quota"`
		Code  string `json:"code"`
	}
	if code != http.StatusTooManyRequests || json.Unmarshal(body, &problem) != nil {
		return "", ""
	}
	return problem.Quota, problem.Code
}

// noisyMain runs the noisy-neighbour drill, once main has prepared cfg.
func noisyMain(cfg config) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runNoisy(ctx, cfg)
}
