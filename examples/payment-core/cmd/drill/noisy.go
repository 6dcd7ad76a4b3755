package main

// The noisy-neighbour drill (-scenario noisy-neighbour): merchants share
// the reports lane (internal/service/reports.go). Calm merchants ask for
// week-long reports at a steady rate; then one merchant floods, sending
// 100 times a calm merchant's rate of 90-day reports (13 times the cost of
// a calm one each). Two runs: the lane alone ("no-quotas"), then with
// per-merchant quotas ("quotas"). Targets: without quotas every calm
// merchant's p99 rises; with them the calm merchants' p99 during the flood
// stays within 10% of their calm baseline (the same run's calm phase), none
// of them is refused, and the flooder is answered 429 with Retry-After and
// a problem body naming the quota.

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"math"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
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
	noisyFull  = noisyPlan{merchants: 10, rate: 3, calm: 30 * time.Second, flood: 30 * time.Second, after: 10 * time.Second}
	noisyShort = noisyPlan{merchants: 10, rate: 2, calm: 15 * time.Second, flood: 15 * time.Second, after: 5 * time.Second}
)

// noisyRec is one report request.
type noisyRec struct {
	at, lat    time.Duration
	merchant   string
	code       int
	retryAfter bool
	quota      string // the problem body's quota member, for a 429
}

type noisyRun struct {
	name                 string
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
	r := &noisyRun{name: name}
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
	log.Printf("%s run: %d calm merchants at %.0f/s each (%d-day reports) for %s; from %s to %s %s sends %.0f/s of %d-day reports",
		name, plan.merchants, plan.rate, calmDays, total, r.floodFrom, r.floodTill, floodMerchant, floodRate, floodDays)
	r.start = time.Now()
	var mu sync.Mutex
	var wg sync.WaitGroup
	collect := func(results <-chan *vegeta.Result) {
		for res := range results {
			rec := noisyOf(res, r.start)
			mu.Lock()
			r.recs = append(r.recs, rec)
			mu.Unlock()
		}
	}
	timeout := service.ReportsDeadline + hungGrace
	wg.Go(func() { collect(reportAttack(calmRate, total, timeout, calmTargeter(plan.merchants))) })
	wg.Go(func() {
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(r.start.Add(r.floodFrom))):
		}
		collect(reportAttack(floodRate, plan.flood, timeout, floodTargeter()))
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

func reportAttack(rate float64, dur, timeout time.Duration, tr vegeta.Targeter) <-chan *vegeta.Result {
	maxWorkers := uint64(math.Ceil(rate*timeout.Seconds())) + 64
	a := vegeta.NewAttacker(
		vegeta.Timeout(timeout),
		vegeta.Workers(16),
		vegeta.MaxWorkers(maxWorkers),
		vegeta.Connections(int(maxWorkers)),
		vegeta.KeepAlive(true),
		vegeta.MaxBody(4096),
		vegeta.Redirects(vegeta.NoFollow),
	)
	pacer := vegeta.ConstantPacer{Freq: int(math.Round(rate * 10)), Per: 10 * time.Second}
	return a.Attack(tr, pacer, dur, "reports")
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
	var problem struct {
		Quota string `json:"quota"`
	}
	if rec.code == http.StatusTooManyRequests && json.Unmarshal(res.Body, &problem) == nil {
		rec.quota = problem.Quota
	}
	return rec
}

// noisyMain sets the drill up as main does for the other scenarios.
func noisyMain(cfg config) int {
	if cfg.bin == "" {
		exe, err := os.Executable()
		if err != nil {
			log.Fatal(err)
		}
		cfg.bin = filepath.Dir(exe)
	}
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return runNoisy(ctx, cfg)
}
