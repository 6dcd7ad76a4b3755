package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"math"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/bhlint/bhlint/examples/payment-core/internal/service"
)

// The lanes, in report order.
var lanes = [...]string{"card_auth", "fraud", "tax"}

// outcome is what one request got.
type outcome uint8

const (
	outOK       outcome = iota // served
	outFallback                // served by the lane's degradation: verified tax table, pending_fraud
	outShed                    // 429/503 with Retry-After
	outError                   // any other answer, or a 429/503 without Retry-After
	outHung                    // no answer by the deadline (+1 s grace)
	numOutcomes
)

var outcomeNames = [numOutcomes]string{"ok", "fallback", "shed", "error", "hung"}

// rec is one request.
type rec struct {
	at  time.Duration // sent, from the start of the run
	lat time.Duration
	out outcome
}

// pgCount is one lane's connections in pg_stat_activity.
type pgCount struct{ Total, Active, IdleInTx int }

type laneSample struct {
	at      time.Duration
	active  map[string]int64 // by route, inside the lane
	fds     int              // the service's open file descriptors, -1 unknown
	breaker string           // the fraud lane's breaker ("" without one)
	scored  int64            // the async fraud queue: scored so far
	pending int              // the async fraud queue: places in use
	laneAct map[string]int   // calls running in each lane's executor
	lagging bool             // the tax lane reports recovery lag
	stuck   int64            // injected stuck tax calls holding their transaction
}

type pgSample struct {
	at    time.Duration
	byApp map[string]pgCount // by lane (application_name without the prefix)
	load1 float64            // the machine's 1-minute load average
}

// run is everything measured in one mode.
type run struct {
	mode                 string
	rates                map[string]float64
	deadlines            map[string]time.Duration
	start                time.Time
	faultStart, faultEnd time.Duration
	end                  time.Duration // end of the load
	recs                 map[string][]rec
	expected             map[string]int
	laneSamples          []laneSample
	pgSamples            []pgSample
	fdPeak               map[string]int // the descriptors by kind, at the most seen (sampled every second)
	final                service.Snapshot
	recovery             time.Duration // -1: not within the run
	afterLoad            map[string]pgCount
	leftAfterExit        int
	cleanExit            bool
	pid                  int
	logPath              string
	emfile               int           // "too many open files" in the service's log
	alerts               int           // ALERT_BULKHEAD_RECOVERY_LAG lines in the service's log
	drained              time.Duration // async queue empty, from the fault's end; -1 not within the wait
}

func deadlinesFor(mode string) map[string]time.Duration {
	tax := service.TaxDeadline
	if mode == service.ModeBefore {
		tax = service.LegacyTaxDeadline
	}
	return map[string]time.Duration{"card_auth": service.CardAuthDeadline, "fraud": service.FraudDeadline, "tax": tax}
}

// hungGrace is how long after its deadline an answer still counts as on time.
const hungGrace = time.Second

func runMode(ctx context.Context, cfg config, mode string) (*run, error) {
	log.Printf("%s mode: starting payment-core", mode)
	env := []string{"GOMAXPROCS=2"}
	if cfg.scenario.name == "cpu-ceiling" {
		env = []string{"GOMAXPROCS=1"}
	}
	var wrap []string
	if cfg.scenario.wrap != nil {
		wrap = cfg.scenario.wrap(cfg)
	}
	var extra []string
	if cfg.scenario.args != nil {
		extra = cfg.scenario.args(mode)
	}
	svc, err := startWrapped(ctx, cfg, wrap, env, "payment-core", append(extra, "-mode", serviceMode(mode), "-reset", "-addr", serviceAddr, "-dsn", cfg.dsn,
		"-card-url", "http://"+cardAddr, "-fraud-url", "http://"+fraudAddr, "-tax-url", "http://"+taxAddr)...)
	if err != nil {
		return nil, err
	}
	stopped := false
	defer func() {
		if !stopped {
			svc.stop(5 * time.Second)
		}
	}()
	if err := waitHTTP(ctx, "http://"+serviceAddr+"/healthz", 30*time.Second); err != nil {
		return nil, fmt.Errorf("payment-core did not come up: %w (log: %s)", err, svc.logPath)
	}
	if err := cfg.scenario.inject(ctx, cfg, false); err != nil {
		return nil, err
	}
	pg, err := pgConnect(ctx, cfg.dsn)
	if err != nil {
		return nil, err
	}
	defer pg.Close(context.Background())

	r := &run{
		mode: mode, deadlines: deadlinesFor(mode), recs: map[string][]rec{}, expected: map[string]int{}, recovery: -1, drained: -1,
		pid: svc.cmd.Process.Pid, logPath: svc.logPath,
		rates: map[string]float64{"card_auth": specCardRate * cfg.scale, "fraud": specFraudRate * cfg.scale, "tax": specTaxRate * cfg.scale},
	}
	dur := cfg.baseline + cfg.fault + cfg.after
	r.start = time.Now()
	sampleCtx, stopSampling := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wg.Go(func() { sampleLanes(sampleCtx, r, &mu) })
	wg.Go(func() { samplePG(sampleCtx, pg, r, &mu) })

	faultErr := make(chan error, 1)
	go func() { faultErr <- injectFault(ctx, cfg, r, &mu) }()

	log.Printf("%s mode: load for %s (card_auth %.1f/s, fraud %.1f/s, tax %.1f/s), fault (%s) from %s to %s",
		mode, dur, r.rates["card_auth"], r.rates["fraud"], r.rates["tax"], cfg.scenario.describe(cfg), cfg.baseline, cfg.baseline+cfg.fault)
	var attacks sync.WaitGroup
	for _, lane := range lanes {
		rate := r.rates[lane]
		r.expected[lane] = int(rate * dur.Seconds())
		results := attack(lane, rate, dur, r.deadlines[lane]+hungGrace)
		attacks.Go(func() {
			recs := make([]rec, 0, r.expected[lane]+16)
			for res := range results {
				recs = append(recs, rec{at: res.Timestamp.Sub(r.start), lat: res.Latency, out: classify(res, lane, r.deadlines[lane])})
			}
			mu.Lock()
			r.recs[lane] = recs
			mu.Unlock()
		})
	}
	attacks.Wait() // every request has an answer or has timed out
	r.end = time.Since(r.start)
	if err := <-faultErr; err != nil {
		stopSampling()
		wg.Wait()
		return nil, err
	}
	time.Sleep(time.Second) // one more lane sample after the load
	if cfg.scenario.drain && mode == service.ModeBulkhead {
		r.drained = waitDrained(ctx, r, 120*time.Second)
	}
	stopSampling()
	wg.Wait()
	if snap, err := getSnapshot(ctx); err == nil {
		r.final = snap
	} else {
		log.Printf("%s mode: reading /debug/lanes: %v", mode, err)
	}
	r.recovery = recoveryTime(r)
	if cfg.scenario.name == "recovery-lag" {
		r.recovery = laneRecoveryTime(r)
	}
	r.afterLoad, _ = pgConnections(ctx, pg)

	log.Printf("%s mode: stopping payment-core", mode)
	r.cleanExit = svc.stop(15 * time.Second)
	r.emfile = countInLog(svc.logPath, svc.logStart, "too many open files")
	r.alerts = countInLog(svc.logPath, svc.logStart, "ALERT_BULKHEAD_RECOVERY_LAG")
	stopped = true
	r.leftAfterExit = -1
	for i := 0; i < 50; i++ { // up to 5 s for the server to notice the closed sockets
		byApp, err := pgConnections(ctx, pg)
		if err == nil {
			n := 0
			for _, c := range byApp {
				n += c.Total
			}
			r.leftAfterExit = n
			if n == 0 {
				break
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return r, nil
}

func injectFault(ctx context.Context, cfg config, r *run, mu *sync.Mutex) error {
	sleepUntil := func(t time.Time) error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Until(t)):
			return nil
		}
	}
	if err := sleepUntil(r.start.Add(cfg.baseline)); err != nil {
		return err
	}
	if err := cfg.scenario.inject(ctx, cfg, true); err != nil {
		return err
	}
	mu.Lock()
	r.faultStart = time.Since(r.start)
	mu.Unlock()
	log.Printf("%s mode: fault on: %s", r.mode, cfg.scenario.describe(cfg))
	if err := sleepUntil(r.start.Add(cfg.baseline + cfg.fault)); err != nil {
		return err
	}
	if err := cfg.scenario.inject(ctx, cfg, false); err != nil {
		return err
	}
	mu.Lock()
	r.faultEnd = time.Since(r.start)
	mu.Unlock()
	log.Printf("%s mode: fault off", r.mode)
	return nil
}

// attack drives one lane at a constant rate (an open model: requests are
// sent on schedule whether or not earlier ones have been answered).
func attack(lane string, rate float64, dur, timeout time.Duration) <-chan *vegeta.Result {
	return attackWith(targeter(lane), lane, rate, dur, timeout)
}

// attackWith sends tr's requests at a constant rate, open model.
func attackWith(tr vegeta.Targeter, name string, rate float64, dur, timeout time.Duration) <-chan *vegeta.Result {
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
	return a.Attack(tr, pacer, dur, name)
}

var jurisdictions = []string{"US-CA", "US-NY", "US-TX", "US-WA"}

// targeter makes lane's requests; vegeta calls it from many goroutines.
func targeter(lane string) vegeta.Targeter {
	var n atomic.Uint64
	base := "http://" + serviceAddr
	return func(t *vegeta.Target) error {
		i := int(n.Add(1))
		t.Method = http.MethodPost
		t.Header = http.Header{"Content-Type": {"application/json"}, "X-Client-ID": {fmt.Sprintf("drill-%s-%d", lane, i)}}
		var body any
		switch lane {
		case "card_auth":
			t.URL = base + "/card/authorize"
			body = service.AuthRequest{MerchantID: fmt.Sprintf("m%d", 1+i%service.Merchants), CardHash: fmt.Sprintf("c%d", i%5000), AmountCents: int64(100 + i%90000)}
		case "fraud":
			t.URL = base + "/fraud/score"
			body = service.ScoreRequest{CardHash: fmt.Sprintf("c%d", i%5000), AmountCents: int64(100 + i%90000)}
		default:
			o := 1 + i%service.Orders
			t.URL = base + "/tax/quote"
			body = service.QuoteRequest{OrderID: fmt.Sprintf("o%d", o), Jurisdiction: jurisdictions[i%len(jurisdictions)], AmountCents: service.OrderAmount(o)}
		}
		b, err := json.Marshal(body)
		t.Body = b
		return err
	}
}

func classify(res *vegeta.Result, lane string, deadline time.Duration) outcome {
	if res.Code == 0 {
		if strings.Contains(res.Error, "Timeout") || strings.Contains(res.Error, "deadline") {
			return outHung
		}
		return outError
	}
	if res.Latency > deadline+hungGrace {
		return outHung
	}
	switch res.Code {
	case http.StatusOK:
		if lane == "tax" && bytes.Contains(res.Body, []byte(`"source":"compensation"`)) {
			return outFallback
		}
		return outOK
	case http.StatusAccepted:
		return outFallback
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		if res.Headers.Get("Retry-After") != "" {
			return outShed
		}
	}
	return outError
}

func getSnapshot(ctx context.Context) (service.Snapshot, error) {
	var snap service.Snapshot
	c := &http.Client{Timeout: time.Second}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+serviceAddr+"/debug/lanes", nil)
	if err != nil {
		return snap, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return snap, err
	}
	defer resp.Body.Close()
	return snap, json.NewDecoder(resp.Body).Decode(&snap)
}

// sampleLanes reads the lanes' active counts every 100 ms until ctx ends.
func sampleLanes(ctx context.Context, r *run, mu *sync.Mutex) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		snap, err := getSnapshot(ctx)
		if err != nil {
			continue
		}
		s := laneSample{at: time.Since(r.start), active: map[string]int64{}, fds: openFDs(r.pid), breaker: snap.Lanes["fraud"].Breaker}
		for name, rt := range snap.Routes {
			s.active[name] = rt.Active
		}
		if q := snap.FraudQueue; q != nil {
			s.scored, s.pending = q.Scored, q.Len
		}
		s.laneAct = map[string]int{}
		for name, l := range snap.Lanes {
			s.laneAct[name] = l.Active
		}
		s.lagging, s.stuck = snap.Lanes["tax"].Lagging, snap.TaxStuck
		mu.Lock()
		r.laneSamples = append(r.laneSamples, s)
		mu.Unlock()
	}
}

// waitDrained waits, at most limit, for the async fraud queue to have
// scored every score it accepted, and returns when that was, from the
// fault's end (-1: not within limit).
func waitDrained(ctx context.Context, r *run, limit time.Duration) time.Duration {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if snap, err := getSnapshot(ctx); err == nil && snap.FraudQueue != nil {
			q := snap.FraudQueue
			if q.Len == 0 && q.Scored == q.Queued {
				return time.Since(r.start) - r.faultEnd
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return -1
}

// samplePG reads pg_stat_activity every second until ctx ends.
func samplePG(ctx context.Context, pg *pgx.Conn, r *run, mu *sync.Mutex) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		byApp, err := pgConnections(ctx, pg)
		if err != nil {
			continue
		}
		kinds := fdKinds(r.pid)
		mu.Lock()
		r.pgSamples = append(r.pgSamples, pgSample{at: time.Since(r.start), byApp: byApp, load1: loadAvg()})
		if sumKinds(kinds) > sumKinds(r.fdPeak) {
			r.fdPeak = kinds
		}
		mu.Unlock()
	}
}

func pgConnect(ctx context.Context, dsn string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.RuntimeParams["application_name"] = "payment-core-drill"
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return pgx.ConnectConfig(ctx, cfg)
}

// pgConnections counts the service's connections per lane.
func pgConnections(ctx context.Context, pg *pgx.Conn) (map[string]pgCount, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	rows, err := pg.Query(ctx, `SELECT application_name, count(*),
		count(*) FILTER (WHERE state = 'active'),
		count(*) FILTER (WHERE state LIKE 'idle in transaction%')
		FROM pg_stat_activity WHERE application_name LIKE 'payment-core/%' AND application_name <> 'payment-core/setup'
		GROUP BY 1`)
	if err != nil {
		return nil, err
	}
	out := map[string]pgCount{}
	for rows.Next() {
		var app string
		var c pgCount
		if err := rows.Scan(&app, &c.Total, &c.Active, &c.IdleInTx); err != nil {
			return nil, err
		}
		out[strings.TrimPrefix(app, "payment-core/")] = c
	}
	return out, rows.Err()
}

// recoveryTime is how long after the fault ended the tax lane first had
// fewer than 5 requests running.
func recoveryTime(r *run) time.Duration {
	for _, s := range r.laneSamples {
		if s.at >= r.faultEnd && s.active["tax"] < 5 {
			return s.at - r.faultEnd
		}
	}
	return -1
}

// laneRecoveryTime is how long after the fault ended the tax lane's
// executor first ran fewer than 5 calls (the stuck calls are not HTTP
// requests; the lane counts them).
func laneRecoveryTime(r *run) time.Duration {
	for _, s := range r.laneSamples {
		if s.at >= r.faultEnd && s.laneAct != nil && s.laneAct["tax"] < 5 {
			return s.at - r.faultEnd
		}
	}
	return -1
}

// loadAvg is the 1-minute load average (Linux), or -1.
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	var l float64
	if _, err := fmt.Sscanf(string(b), "%f", &l); err != nil {
		return -1
	}
	return l
}
