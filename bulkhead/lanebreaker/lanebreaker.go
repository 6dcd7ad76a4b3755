// Package lanebreaker is a circuit breaker for one bulkhead lane, built on
// failsafe-go's circuit breaker:
//
//	b, err := lanebreaker.New(lanebreaker.Config{})
//	fraud, err := bulkhead.NewExecutor[Fraud](bulkhead.WithBreaker(b))
//
// The defaults are those of a payment service's fraud-vendor breaker
// (docs/ARCHITECTURE.md, "Breakers and bulkheads"). The breaker opens when more
// than half of the calls of the last 30 seconds failed, once at least 20
// calls were made in that time; open, it rejects the lane's work at once
// (bulkhead.ReasonBreakerOpen, answered by the lane's policy or fallback)
// for 30 seconds, then lets up to 3 probe calls through: 3 successes in a
// row close it, a failure opens it again. Timeouts count as failures, the
// caller's own errors (bulkhead.CallerError, an HTTP 4xx) do not; see
// bulkhead.DependencyFailure.
//
// failsafe-go expresses all of this, with two adjustments. It compares a
// failure rate rounded to two decimals (50.5% reads as 0.50, so 51
// failures of 101 calls would not open a "more than half" breaker), so the
// breaker decides when to open itself, from failsafe-go's exact counts of
// the window: failures > FailureRate × calls. And it takes a permit back
// only with a result: a call that is not a failure (a caller's error, a call its caller
// cancelled) is recorded as a success, and so counts towards closing a
// half-open breaker; for the same reason the executor asks for a permit
// only once the lane has given the work a slot.
//
// One breaker serves one lane: an executor binds it, and a second executor
// given the same breaker fails to start.
package lanebreaker

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
)

// Config configures a Breaker. Zero fields take the defaults.
type Config struct {
	// FailureRate: the breaker opens when the share of failed calls in
	// Window is more than this. Default 0.5 (more than half: 10 failures of
	// 20 calls do not open it, 11 do).
	FailureRate float64
	// Window is the sliding window the failure rate is measured over.
	// Default 30s.
	Window time.Duration
	// MinCalls is how many calls Window must hold before the rate counts,
	// so a few errors in a quiet moment do not open the breaker. Default 20.
	MinCalls int
	// OpenFor is how long the breaker stays open before it lets probes
	// through. Default 30s.
	OpenFor time.Duration
	// Probes is how many probe calls a half-open breaker lets through, and
	// how many successes in a row close it. Default 3.
	Probes int
	// IsFailure says whether a call's error counts against the dependency.
	// Default bulkhead.DependencyFailure.
	IsFailure func(error) bool
}

// Breaker is one lane's circuit breaker; it implements bulkhead.Breaker.
type Breaker struct {
	cb        circuitbreaker.CircuitBreaker[any]
	isFailure func(error) bool

	failureRate float64
	minCalls    uint
	// deciding makes recording a call and opening on the window's counts
	// one step, so a stale count never opens a breaker that was just reset.
	deciding sync.Mutex

	mu      sync.Mutex
	lane    string
	changed func(from, to bulkhead.BreakerState)
}

// New makes a breaker. The error names the field to fix.
func New(cfg Config) (*Breaker, error) {
	cfg, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	b := &Breaker{isFailure: cfg.IsFailure, failureRate: cfg.FailureRate, minCalls: uint(cfg.MinCalls)}
	// failsafe-go keeps the window's counts and the open and half-open
	// states; its own threshold is one it can never reach (it would compare
	// a rounded rate), and Done opens the breaker on the exact counts.
	b.cb = circuitbreaker.NewBuilder[any]().
		WithFailureThresholdPeriod(math.MaxUint32, cfg.Window).
		WithSuccessThreshold(uint(cfg.Probes)).
		WithDelay(cfg.OpenFor).
		OnStateChanged(b.report).
		Build()
	return b, nil
}

func (cfg Config) resolve() (Config, error) {
	switch {
	case cfg.FailureRate < 0 || cfg.FailureRate >= 1 || math.IsNaN(cfg.FailureRate):
		return cfg, fmt.Errorf("lanebreaker: FailureRate %v must be a share between 0 and 1 (0.5 opens when more than half fail); 0 means 0.5", cfg.FailureRate)
	case cfg.Window < 0, cfg.OpenFor < 0:
		return cfg, errors.New("lanebreaker: Window and OpenFor must not be negative; 0 means 30s")
	case cfg.MinCalls < 0, cfg.Probes < 0:
		return cfg, errors.New("lanebreaker: MinCalls and Probes must not be negative; 0 means 20 and 3")
	}
	if cfg.FailureRate == 0 {
		cfg.FailureRate = 0.5
	}
	if cfg.Window == 0 {
		cfg.Window = 30 * time.Second
	}
	if cfg.MinCalls == 0 {
		cfg.MinCalls = 20
	}
	if cfg.OpenFor == 0 {
		cfg.OpenFor = 30 * time.Second
	}
	if cfg.Probes == 0 {
		cfg.Probes = 3
	}
	if cfg.IsFailure == nil {
		cfg.IsFailure = bulkhead.DependencyFailure
	}
	return cfg, nil
}

// Refusing implements bulkhead.Breaker: open and not due for a probe yet.
func (b *Breaker) Refusing() bool { return b.cb.RemainingDelay() > 0 }

// Permit implements bulkhead.Breaker.
func (b *Breaker) Permit() bool { return b.cb.TryAcquirePermit() }

// Done implements bulkhead.Breaker. failsafe-go takes the permit back with
// the result; it has no other way to return one.
func (b *Breaker) Done(failure bool) {
	b.deciding.Lock()
	defer b.deciding.Unlock()
	if failure {
		b.cb.RecordFailure()
	} else {
		b.cb.RecordSuccess()
	}
	if b.cb.IsClosed() && b.tripped(b.cb.Metrics()) {
		b.cb.Open()
	}
}

// tripped: more than FailureRate of at least MinCalls calls failed,
// compared without rounding.
func (b *Breaker) tripped(window circuitbreaker.Metrics) bool {
	calls := window.Executions()
	return calls >= b.minCalls && float64(window.Failures()) > b.failureRate*float64(calls)
}

// IsFailure implements bulkhead.Breaker.
func (b *Breaker) IsFailure(err error) bool { return b.isFailure(err) }

// State implements bulkhead.Breaker.
func (b *Breaker) State() bulkhead.BreakerState { return convert(b.cb.State()) }

// Bind implements bulkhead.Breaker.
func (b *Breaker) Bind(lane string, changed func(from, to bulkhead.BreakerState)) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.lane != "" {
		return fmt.Errorf("lanebreaker: the breaker of lane %q was given to lane %q too; give each lane its own breaker, or one lane's failures would cut the other off", b.lane, lane)
	}
	b.lane, b.changed = lane, changed
	return nil
}

// Open, Close and HalfOpen force the breaker's state, for operators and
// drills; the change is reported like any other.
func (b *Breaker) Open()     { b.cb.Open() }
func (b *Breaker) Close()    { b.cb.Close() }
func (b *Breaker) HalfOpen() { b.cb.HalfOpen() }

// report passes failsafe-go's transitions on to the lane; failsafe-go calls
// it outside its lock.
func (b *Breaker) report(e circuitbreaker.StateChangedEvent) {
	b.mu.Lock()
	changed := b.changed
	b.mu.Unlock()
	if changed != nil {
		changed(convert(e.OldState), convert(e.NewState))
	}
}

func convert(s circuitbreaker.State) bulkhead.BreakerState {
	switch s {
	case circuitbreaker.OpenState:
		return bulkhead.BreakerOpen
	case circuitbreaker.HalfOpenState:
		return bulkhead.BreakerHalfOpen
	}
	return bulkhead.BreakerClosed
}

var _ bulkhead.Breaker = (*Breaker)(nil)
