package lanebreaker_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/fakeclock"
	"github.com/bhlint/bhlint/bulkhead/internal/testsvc"
	"github.com/bhlint/bhlint/bulkhead/lanebreaker"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type fraud struct{}

func (fraud) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "fraud", MaxConcurrent: 20, Policy: bulkhead.PolicyThrottle, RetryAfter: 5 * time.Second}
}

// transitions records the breaker changes an executor reports.
type transitions struct {
	mu  sync.Mutex
	got []string
}

func (tr *transitions) Observe(e bulkhead.Event) {
	if e.Kind == bulkhead.EventBreakerChanged {
		tr.mu.Lock()
		tr.got = append(tr.got, e.BreakerFrom.String()+">"+e.BreakerTo.String())
		tr.mu.Unlock()
	}
}

func (tr *transitions) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return strings.Join(tr.got, " ")
}

func newLane(t *testing.T, cfg lanebreaker.Config, opts ...bulkhead.Option) (*bulkhead.Executor[fraud], *lanebreaker.Breaker) {
	t.Helper()
	b, err := lanebreaker.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e, err := bulkhead.NewExecutor[fraud](append(opts, bulkhead.WithBreaker(b))...)
	if err != nil {
		t.Fatal(err)
	}
	return e, b
}

func calls(e *bulkhead.Executor[fraud], n int, err error) {
	for range n {
		_ = e.Do(context.Background(), func(context.Context) error { return err })
	}
}

var errVendor = errors.New("fraud vendor: 503")

func TestOpensWhenMoreThanHalfOfTwentyFail(t *testing.T) {
	tr := &transitions{}
	e, b := newLane(t, lanebreaker.Config{}, bulkhead.WithObserver(tr))
	calls(e, 10, nil)
	calls(e, 10, errVendor) // 10 of 20: half, not more than half
	if s := b.State(); s != bulkhead.BreakerClosed {
		t.Fatalf("state %v after 10 failures in 20 calls; want closed", s)
	}
	calls(e, 1, errVendor) // 11 of 21
	if s := e.Stats().Breaker; s != bulkhead.BreakerOpen {
		t.Fatalf("state %v after 11 failures in 21 calls; want open", s)
	}
	if tr.String() != "closed>open" {
		t.Errorf("transitions %q; want closed>open", tr)
	}

	ran := false
	err := e.Do(context.Background(), func(context.Context) error { ran = true; return nil })
	rej, ok := bulkhead.AsRejection(err)
	if ran || !ok || rej.Reason != bulkhead.ReasonBreakerOpen || rej.Code != "ERR_FRAUD_CIRCUIT_OPEN" ||
		rej.Status != http.StatusTooManyRequests || rej.RetryAfter != 5*time.Second || !errors.Is(err, bulkhead.ErrRejected) {
		t.Errorf("call on an open breaker: ran %v, %v; want a breaker_open rejection with the lane's policy", ran, err)
	}
	if s := e.Stats(); s.Active != 0 {
		t.Errorf("Active = %d after a breaker rejection", s.Active)
	}
}

// The rate is compared exactly at any number of calls: failsafe-go rounds
// its rate to two decimals, and 51 failures of 101 (50.5%) read as 0.50.
func TestMoreThanHalfIsExactAboveOneHundredCalls(t *testing.T) {
	for _, tc := range []struct {
		rate       float64
		ok, failed int
		open       bool
	}{
		{0, 50, 50, false},
		{0, 50, 51, true},
		{0, 100, 100, false},
		{0, 100, 101, true},
		{0, 1000, 1001, true},
		{0.505, 99, 101, false}, // exactly 50.5%: not more than it
		{0.505, 98, 101, true},
	} {
		e, b := newLane(t, lanebreaker.Config{FailureRate: tc.rate})
		calls(e, tc.ok, nil) // successes first, so the window reaches MinCalls below the rate
		calls(e, tc.failed, errVendor)
		if got := b.State() == bulkhead.BreakerOpen; got != tc.open {
			t.Errorf("FailureRate %v, %d failures of %d calls: open %v; want %v", tc.rate, tc.failed, tc.ok+tc.failed, got, tc.open)
		}
	}
}

func TestNeedsTwentyCalls(t *testing.T) {
	e, b := newLane(t, lanebreaker.Config{})
	calls(e, 19, errVendor)
	if s := b.State(); s != bulkhead.BreakerClosed {
		t.Errorf("state %v after 19 failures; the window needs 20 calls", s)
	}
}

func TestCallerErrorsDoNotCountTimeoutsDo(t *testing.T) {
	e, b := newLane(t, lanebreaker.Config{})
	calls(e, 30, bulkhead.CallerError(errors.New("validation: amount < 0")))
	calls(e, 30, context.Canceled)
	if s := b.State(); s != bulkhead.BreakerClosed {
		t.Fatalf("state %v after caller errors and cancellations; want closed", s)
	}
	e2, b2 := newLane(t, lanebreaker.Config{})
	calls(e2, 20, context.DeadlineExceeded)
	if s := b2.State(); s != bulkhead.BreakerOpen {
		t.Errorf("state %v after 20 timeouts; want open", s)
	}
}

// waitProbing waits until the open breaker lets probes through.
func waitProbing(t *testing.T, b *lanebreaker.Breaker) {
	testsvc.WaitFor(t, "the breaker to let probes through", func() bool { return !b.Refusing() })
}

func TestHalfOpenClosesAfterThreeSuccessesInARow(t *testing.T) {
	tr := &transitions{}
	e, b := newLane(t, lanebreaker.Config{OpenFor: time.Millisecond}, bulkhead.WithObserver(tr))
	calls(e, 20, errVendor)
	waitProbing(t, b)

	// Three probes at once are let through; a fourth is not.
	release := make(chan struct{})
	var wg sync.WaitGroup
	started := make(chan struct{}, 3)
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = e.Do(context.Background(), func(context.Context) error { started <- struct{}{}; <-release; return nil })
		}()
	}
	for range 3 {
		<-started
	}
	if s := b.State(); s != bulkhead.BreakerHalfOpen {
		t.Errorf("state %v with probes running; want half_open", s)
	}
	err := e.Do(context.Background(), func(context.Context) error { return nil })
	if rej, ok := bulkhead.AsRejection(err); !ok || rej.Reason != bulkhead.ReasonBreakerOpen {
		t.Errorf("fourth call while three probes run: %v; want breaker_open", err)
	}
	close(release)
	wg.Wait()
	if s := b.State(); s != bulkhead.BreakerClosed {
		t.Errorf("state %v after three successful probes; want closed", s)
	}
	if got := tr.String(); got != "closed>open open>half_open half_open>closed" {
		t.Errorf("transitions %q", got)
	}
}

func TestHalfOpenProbeFailureReopens(t *testing.T) {
	e, b := newLane(t, lanebreaker.Config{OpenFor: time.Millisecond})
	calls(e, 20, errVendor)
	waitProbing(t, b)
	calls(e, 2, nil)
	calls(e, 1, errVendor)
	if s := b.State(); s != bulkhead.BreakerOpen {
		t.Errorf("state %v after a failed probe; want open again", s)
	}
}

type stuckLane struct{}

func (stuckLane) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{Name: "stuck_lane", MaxConcurrent: 1, MaxRunTime: 10 * time.Second}
}

func TestStuckWorkCountsAsFailure(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 9, 15, 12, 0, 0, 0, time.UTC))
	b, err := lanebreaker.New(lanebreaker.Config{})
	if err != nil {
		t.Fatal(err)
	}
	e := bulkhead.MustExecutor[stuckLane](bulkhead.WithClock(clock), bulkhead.WithBreaker(b),
		bulkhead.WithLogger(quietLogger()))
	for range 20 {
		done := make(chan error)
		entered := make(chan struct{})
		go func() {
			done <- e.Do(context.Background(), func(ctx context.Context) error {
				close(entered)
				<-ctx.Done()
				return ctx.Err() // context.Canceled: on its own not a failure
			})
		}()
		<-entered
		clock.Advance(10 * time.Second)
		<-done
	}
	if s := b.State(); s != bulkhead.BreakerOpen {
		t.Errorf("state %v after 20 calls stuck past MaxRunTime; want open", s)
	}
}

func TestOneBreakerPerLane(t *testing.T) {
	b, err := lanebreaker.New(lanebreaker.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bulkhead.NewExecutor[fraud](bulkhead.WithBreaker(b)); err != nil {
		t.Fatal(err)
	}
	_, err = bulkhead.NewExecutor[stuckLane](bulkhead.WithBreaker(b))
	if err == nil || !strings.Contains(err.Error(), `lane "fraud" was given to lane "stuck_lane"`) {
		t.Errorf("second lane on one breaker: %v", err)
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []lanebreaker.Config{{FailureRate: 1.5}, {Window: -1}, {MinCalls: -1}, {Probes: -2}} {
		if _, err := lanebreaker.New(cfg); err == nil || !strings.HasPrefix(err.Error(), "lanebreaker: ") {
			t.Errorf("New(%+v) = %v; want an error naming the field", cfg, err)
		}
	}
}

// The HTTP middleware counts a handler's 5xx answers against the lane's
// breaker, not its 4xx answers, and answers an open breaker with the lane's
// policy or its fallback.
func TestHTTPFeedsTheBreaker(t *testing.T) {
	e, b := newLane(t, lanebreaker.Config{})
	status := http.StatusBadRequest
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) })
	var fallback bool
	mw, err := bulkhead.NewMiddleware(bulkhead.MiddlewareConfig{
		Routes: map[string]bulkhead.Runner{"/score": e},
		OnReject: func(w http.ResponseWriter, r *http.Request, rej *bulkhead.Rejection) bool {
			if !fallback || rej.Reason != bulkhead.ReasonBreakerOpen {
				return false
			}
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write([]byte(`{"decision":"pending_fraud"}`))
			return true
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := mw.Wrap(h)
	get := func() *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("POST", "/score", nil))
		return rec
	}
	for range 30 {
		get()
	}
	if s := b.State(); s != bulkhead.BreakerClosed {
		t.Fatalf("state %v after 30 answers of 400; want closed", s)
	}
	status = http.StatusBadGateway
	for range 31 { // 31 of 61 calls failed: more than half
		get()
	}
	if s := b.State(); s != bulkhead.BreakerOpen {
		t.Fatalf("state %v after 31 answers of 502; want open", s)
	}
	rec := get()
	var p bulkhead.Problem
	_ = json.Unmarshal(rec.Body.Bytes(), &p)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "5" ||
		p.Code != "ERR_FRAUD_CIRCUIT_OPEN" || p.Reason != "breaker_open" || p.Type != bulkhead.ProblemTypeCircuitOpen {
		t.Errorf("open breaker answered %d, Retry-After %q, %+v", rec.Code, rec.Header().Get("Retry-After"), p)
	}
	fallback = true
	if rec := get(); rec.Code != http.StatusAccepted || !strings.Contains(rec.Body.String(), "pending_fraud") {
		t.Errorf("with the lane's fallback: %d %s", rec.Code, rec.Body)
	}
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// The breaker closing is the moment the dependency answers normally again,
// from which recovery lag is measured.
func TestBreakerClosingStartsRecoveryLagClock(t *testing.T) {
	clock := fakeclock.New(time.Date(2026, 9, 15, 12, 0, 0, 0, time.UTC))
	var lagged []bulkhead.Event
	var mu sync.Mutex
	obs := bulkhead.ObserverFunc(func(ev bulkhead.Event) {
		if ev.Kind == bulkhead.EventRecoveryLag {
			mu.Lock()
			lagged = append(lagged, ev)
			mu.Unlock()
		}
	})
	e, b := newLane(t, lanebreaker.Config{OpenFor: time.Millisecond},
		bulkhead.WithClock(clock), bulkhead.WithObserver(obs), bulkhead.WithLogger(quietLogger()))

	// 15 calls hang on the vendor (baseline: 12 of 20 slots) while quick calls fail.
	release := make(chan struct{})
	var wg sync.WaitGroup
	started := make(chan struct{}, 15)
	for range 15 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = e.Do(context.Background(), func(context.Context) error { started <- struct{}{}; <-release; return nil })
		}()
	}
	for range 15 {
		<-started
	}
	defer func() { close(release); wg.Wait() }()
	calls(e, 20, errVendor)
	if b.State() != bulkhead.BreakerOpen {
		t.Fatal("breaker did not open")
	}
	waitProbing(t, b)
	calls(e, 3, nil) // three probes succeed: closed, the vendor answers again
	if b.State() != bulkhead.BreakerClosed {
		t.Fatalf("breaker %v after three good probes", b.State())
	}
	clock.Advance(10 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	if len(lagged) != 1 || lagged[0].Active != 15 {
		t.Errorf("recovery lag events %+v; want one with 15 calls still running", lagged)
	}
}

// A streaming handler in a lane with a breaker still gets an http.Flusher.
func TestHTTPBreakerLaneKeepsFlusher(t *testing.T) {
	e, _ := newLane(t, lanebreaker.Config{})
	var flushed bool
	h := e.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := w.(http.Flusher)
		if ok {
			f.Flush()
			flushed = true
		}
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	if !flushed || !rec.Flushed {
		t.Errorf("handler flushed %v, recorder flushed %v; want both", flushed, rec.Flushed)
	}
}
