package chaos_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanedb"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type (
	CardAuth struct{}
	Fraud    struct{}
	Tax      struct{}
)

func (CardAuth) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "chaos_card_auth_" + testsvc.Suffix, MaxConcurrent: 6, MaxQueued: 6, QueueTimeout: 100 * time.Millisecond, Policy: bulkhead.PolicyThrottle, RetryAfter: time.Second}
}

func (Fraud) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "chaos_fraud_" + testsvc.Suffix, MaxConcurrent: 4, MaxQueued: 2, QueueTimeout: 50 * time.Millisecond, RetryAfter: 2 * time.Second}
}

func (Tax) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "chaos_tax_" + testsvc.Suffix, MaxConcurrent: 2, RetryAfter: 5 * time.Second}
}

func name[L bulkhead.Lane]() string {
	s, err := bulkhead.SpecOf[L]()
	if err != nil {
		panic(err)
	}
	return s.Name
}

// fault is what the chaos does to one operation.
type fault uint8

const (
	none          fault = iota
	panicEarly          // the handler panics before it takes a connection
	panicHolding        // the handler panics while holding a connection
	cancelClient        // the client goes away after a random delay
	shortDeadline       // the request's deadline is 2–40ms away
	stall               // the database stalls (pg_sleep(5)) until the deadline
)

var faultNames = [...]string{"none", "panic_early", "panic_holding", "cancel", "short_deadline", "stall"}

type op struct {
	lane     int // 0 card_auth, 1 fraud, 2 tax
	fault    fault
	deadline time.Duration
	cancelAt time.Duration
	sleep    time.Duration // the normal query's duration
}

// plan derives operation i from the seed alone, so a run is reproducible
// whatever order the workers take the operations in.
func plan(seed uint64, i int) op {
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	o := op{lane: []int{0, 0, 0, 1, 1, 2}[rng.IntN(6)], deadline: 300 * time.Millisecond, sleep: time.Duration(1+rng.IntN(5)) * time.Millisecond}
	switch p := rng.IntN(100); {
	case p < 60:
		o.fault = none
	case p < 65:
		o.fault = panicEarly
	case p < 70:
		o.fault = panicHolding
	case p < 80:
		o.fault, o.cancelAt = cancelClient, time.Duration(rng.IntN(20))*time.Millisecond
	case p < 92:
		o.fault, o.deadline = shortDeadline, time.Duration(2+rng.IntN(38))*time.Millisecond
	default:
		o.fault, o.deadline = stall, time.Duration(80+rng.IntN(170))*time.Millisecond
	}
	return o
}

type opKey struct{}

// recorder is a ResponseWriter that knows whether anything was written.
type recorder struct {
	h     http.Header
	code  int
	wrote bool
}

func (r *recorder) Header() http.Header { return r.h }
func (r *recorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.WriteHeader(http.StatusOK)
	}
	return len(b), nil
}
func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.code, r.wrote = code, true
	}
}

// outcome is how a request ended.
type outcome string

const (
	served    outcome = "served"
	shed      outcome = "shed"      // 503 or 429 with Retry-After
	fallback  outcome = "fallback"  // 202: handed to the async queue
	abandoned outcome = "abandoned" // the client went away: no one to answer
	lost      outcome = "LOST"
)

func classify(rec *recorder, ctxErr error) outcome {
	switch {
	case !rec.wrote && errors.Is(ctxErr, context.Canceled):
		return abandoned
	case !rec.wrote:
		return lost
	case rec.code == http.StatusOK:
		return served
	case rec.code == http.StatusAccepted && rec.h.Get("X-Outcome") == "fallback":
		return fallback
	case (rec.code == http.StatusServiceUnavailable || rec.code == http.StatusTooManyRequests) && rec.h.Get("Retry-After") != "":
		return shed
	}
	return lost
}

func TestChaos(t *testing.T) {
	seed := uint64(20261129)
	if s := os.Getenv("BHLINT_CHAOS_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	ops, workers := 600, 8
	if testing.Short() {
		ops = 200
	}
	lanes := []string{name[CardAuth](), name[Fraud](), name[Tax]()}
	dsn, mon := testsvc.NewMonitor(t, lanes...)
	budgets := map[string]int{lanes[0]: 4, lanes[1]: 2, lanes[2]: 1}

	cardExec, fraudExec, taxExec := bulkhead.MustExecutor[CardAuth](), bulkhead.MustExecutor[Fraud](), bulkhead.MustExecutor[Tax]()
	cardDB := open[CardAuth](t, dsn, lanepool.Config{MaxConns: 4, MaxWaiters: 4, AcquireTimeout: 100 * time.Millisecond, LeakThreshold: -1})
	fraudDB := open[Fraud](t, dsn, lanepool.Config{MaxConns: 2, MaxWaiters: 2, AcquireTimeout: 50 * time.Millisecond, LeakThreshold: -1})
	taxDB := open[Tax](t, dsn, lanepool.Config{MaxConns: 1, MaxWaiters: 1, AcquireTimeout: 30 * time.Millisecond, LeakThreshold: -1})

	// The service: one handler per lane, each using its lane's pool.
	handler := func(db interface {
		Conn(context.Context) (dbConn, error)
	}, fallbackLane bool) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx := r.Context()
			o := ctx.Value(opKey{}).(op)
			if o.fault == panicEarly {
				panic("chaos: panic before taking a connection")
			}
			c, err := db.Conn(ctx)
			if err != nil {
				answerError(w, ctx, err, fallbackLane)
				return
			}
			defer c.Close()
			sleep := o.sleep.Seconds()
			if o.fault == stall {
				sleep = 5
			}
			if err := c.Sleep(ctx, sleep); err != nil {
				answerError(w, ctx, err, fallbackLane)
				return
			}
			if o.fault == panicHolding {
				panic("chaos: panic while holding a connection")
			}
			w.WriteHeader(http.StatusOK)
		})
	}
	mux := http.NewServeMux()
	mux.Handle("/card_auth", handler(adapt(cardDB), false))
	mux.Handle("/fraud", handler(adapt(fraudDB), true))
	mux.Handle("/tax", handler(adapt(taxDB), false))
	mw, err := bulkhead.NewMiddleware(bulkhead.MiddlewareConfig{
		Routes: map[string]bulkhead.Runner{"/card_auth": cardExec, "/fraud": fraudExec, "/tax": taxExec},
		OnReject: func(w http.ResponseWriter, r *http.Request, rej *bulkhead.Rejection) bool {
			if rej.Lane != name[Fraud]() {
				return false
			}
			w.Header().Set("X-Outcome", "fallback") // fraud falls back to its async queue
			w.WriteHeader(http.StatusAccepted)
			return true
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	service := recoverPanics(mw.Wrap(mux))

	tr := mon.Track()
	type result struct {
		op  op
		out outcome
	}
	results := make([]result, ops)
	next := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				o := plan(seed, i)
				results[i] = result{o, runOp(t, service, o)}
			}
		}()
	}
	for i := range ops {
		next <- i
	}
	close(next)
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(60 * time.Second):
		buf := make([]byte, 1<<20)
		t.Fatalf("chaos run hung after 60s; goroutines:\n%s", buf[:runtime.Stack(buf, true)])
	}
	took := time.Since(start)

	// Every request ended, and ended in a way its fault allows.
	tally := map[string]map[outcome]int{}
	byFault := map[string]map[outcome]int{}
	for i, r := range results {
		ln := lanes[r.op.lane]
		if tally[ln] == nil {
			tally[ln] = map[outcome]int{}
		}
		tally[ln][r.out]++
		fn := faultNames[r.op.fault]
		if byFault[fn] == nil {
			byFault[fn] = map[outcome]int{}
		}
		byFault[fn][r.out]++
		switch {
		case r.out == lost || r.out == "":
			t.Errorf("op %d (%s, %s) was lost: no answer and its client did not go away", i, ln, fn)
		case r.out == abandoned && r.op.fault != cancelClient:
			t.Errorf("op %d (%s, %s) ended unanswered though its client waited", i, ln, fn)
		case r.out == served && (r.op.fault == panicEarly || r.op.fault == panicHolding || r.op.fault == stall):
			t.Errorf("op %d (%s, %s) was served despite its fault", i, ln, fn)
		case r.out == fallback && r.op.lane != 1:
			t.Errorf("op %d (%s) fell back, but only fraud has a fallback", i, ln)
		}
	}
	t.Logf("seed %d: %d operations in %s", seed, ops, took.Round(time.Millisecond))
	for _, ln := range lanes {
		t.Logf("  %-28s %v", ln, tally[ln])
	}
	for _, fn := range faultNames {
		t.Logf("  fault %-15s %v", fn, byFault[fn])
	}
	for _, want := range []outcome{served, shed, fallback, abandoned} {
		n := 0
		for _, m := range tally {
			n += m[want]
		}
		if n == 0 {
			t.Errorf("no request ended as %s: the chaos did not exercise that ending", want)
		}
	}

	// Every slot and connection is back.
	for _, s := range []bulkhead.Stats{cardExec.Stats(), fraudExec.Stats(), taxExec.Stats()} {
		if s.Active != 0 || s.Queued != 0 {
			t.Errorf("lane %s: %d slots still taken, %d callers still queued", s.Lane, s.Active, s.Queued)
		}
	}
	// A connection broken by a deadline keeps its slot until the server has
	// ended its session (see lanedb.Conn.Close): wait for that, boundedly.
	drained := time.Now()
	for _, src := range []lanepool.Source{cardDB, fraudDB, taxDB} {
		for deadline := time.Now().Add(20 * time.Second); src.PoolStats().InUse != 0 && time.Now().Before(deadline); {
			time.Sleep(2 * time.Millisecond)
		}
	}
	t.Logf("  the last broken sessions were gone %s after the last request ended", time.Since(drained).Round(time.Millisecond))
	for _, s := range []lanepool.Stats{cardDB.PoolStats(), fraudDB.PoolStats(), taxDB.PoolStats()} {
		if s.InUse != 0 || s.Waiting != 0 {
			t.Errorf("%s: %d connections still held, %d callers still waiting", s.Resource, s.InUse, s.Waiting)
		}
		t.Logf("  %-18s acquired %d, failed %d (timeouts %d)", s.Resource, s.Acquired, s.Failed, s.Timeouts)
	}
	seen, polls := tr.Stop()
	// A session that database/sql discards while handing it out can outlive
	// its slot by the milliseconds the server takes to end it (the README's
	// one known window; tens of them on a loaded machine), so a count over
	// budget for less than testsvc.HeldFor is logged; one over budget in
	// every poll for that long is a leak of the bound.
	held := tr.Held()
	for ln, budget := range budgets {
		if held[ln] > budget {
			t.Errorf("%s: %d sessions in pg_stat_activity in every poll for %s, over its budget of %d", ln, held[ln], testsvc.HeldFor, budget)
		}
		if seen[ln] > budget {
			t.Logf("  %s: %d sessions in one poll, over its budget of %d for less than that", ln, seen[ln], budget)
		}
	}
	t.Logf("  most sessions seen in %d polls of pg_stat_activity: %v, for %s: %v (budgets %v)", polls, seen, testsvc.HeldFor, held, budgets)
	// Closing the pools (t.Cleanup), the monitor then checks that no session
	// and no goroutine is left.
}

// runOp sends one request and classifies how it ended.
func runOp(t *testing.T, service http.Handler, o op) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), o.deadline)
	defer cancel()
	ctx = context.WithValue(ctx, opKey{}, o)
	if o.fault == cancelClient {
		stop := time.AfterFunc(o.cancelAt, cancel)
		defer stop.Stop()
	}
	path := []string{"/card_auth", "/fraud", "/tax"}[o.lane]
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, path, nil)
	rec := &recorder{h: http.Header{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		service.ServeHTTP(rec, req)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Errorf("request hung: %+v", o)
		return lost
	}
	return classify(rec, ctx.Err())
}

// answerError answers a failure to get or use a connection: fraud falls
// back, the other lanes shed with Retry-After; a client that went away gets
// nothing.
func answerError(w http.ResponseWriter, ctx context.Context, err error, fallbackLane bool) {
	if errors.Is(ctx.Err(), context.Canceled) {
		return
	}
	if fallbackLane {
		w.Header().Set("X-Outcome", "fallback")
		w.WriteHeader(http.StatusAccepted)
		return
	}
	retry := 5 * time.Second
	var ae *lanepool.AcquireError
	if errors.As(err, &ae) {
		retry = ae.RetryAfter
	}
	bulkhead.WriteProblem(w, int((retry+time.Second-1)/time.Second), bulkhead.Problem{
		Type: "urn:bhlint:problem:dependency", Title: "The dependency did not answer in time",
		Status: http.StatusServiceUnavailable, Detail: err.Error(), Code: "ERR_DEPENDENCY_UNAVAILABLE",
	})
}

// recoverPanics answers a panic with 503 and Retry-After, after the lane's
// executor and the handler's deferred Close have given back what they held.
func recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				bulkhead.WriteProblem(w, 1, bulkhead.Problem{
					Type: "urn:bhlint:problem:internal", Title: "Internal error", Status: http.StatusServiceUnavailable,
					Detail: fmt.Sprint(p), Code: "ERR_INTERNAL_PANIC",
				})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

type dbConn interface {
	Sleep(ctx context.Context, seconds float64) error
	Close() error
}

type laneConn[L bulkhead.Lane] struct{ c *lanedb.Conn[L] }

func (c laneConn[L]) Sleep(ctx context.Context, s float64) error {
	_, err := c.c.ExecContext(ctx, "select pg_sleep($1)", s)
	return err
}

func (c laneConn[L]) Close() error { return c.c.Close() }

type laneDB[L bulkhead.Lane] struct{ db *lanedb.DB[L] }

func (d laneDB[L]) Conn(ctx context.Context) (dbConn, error) {
	c, err := d.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return laneConn[L]{c}, nil
}

func adapt[L bulkhead.Lane](db *lanedb.DB[L]) laneDB[L] { return laneDB[L]{db} }

func open[L bulkhead.Lane](t *testing.T, dsn string, cfg lanepool.Config) *lanedb.DB[L] {
	t.Helper()
	db, err := lanedb.Open[L]("pgx", dsn, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := db.SQL().PingContext(ctx); err != nil { // one connection open before the chaos starts
		t.Fatal(err)
	}
	return db
}
