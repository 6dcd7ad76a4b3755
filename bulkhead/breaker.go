package bulkhead

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// BreakerState is the state of a lane's circuit breaker.
type BreakerState uint8

const (
	// BreakerClosed: calls go through and their outcomes are counted.
	BreakerClosed BreakerState = iota
	// BreakerOpen: the dependency failed too often; calls are rejected at
	// once with ReasonBreakerOpen until the breaker lets probes through.
	BreakerOpen
	// BreakerHalfOpen: a few probe calls go through; enough successes in a
	// row close the breaker, a failure opens it again.
	BreakerHalfOpen
)

// BreakerStates lists every BreakerState, for metrics that export one series per state.
var BreakerStates = [3]BreakerState{BreakerClosed, BreakerOpen, BreakerHalfOpen}

// String is the state's metric label value.
func (s BreakerState) String() string {
	switch s {
	case BreakerClosed:
		return "closed"
	case BreakerOpen:
		return "open"
	case BreakerHalfOpen:
		return "half_open"
	}
	return fmt.Sprintf("BreakerState(%d)", uint8(s))
}

// Breaker is a circuit breaker in front of one lane's dependency. The
// executor asks it before running work and tells it how the work ended;
// the breaker decides when to open and close. The lanebreaker subpackage
// provides one built on failsafe-go (the core package keeps to the standard
// library); install it with [WithBreaker].
type Breaker interface {
	// Refusing reports whether the breaker is open and not yet letting a
	// probe through, so the executor can reject without touching the lane.
	Refusing() bool
	// Permit takes a permit for one call, or reports false if the breaker
	// refuses it. Every permit is returned by exactly one Done.
	Permit() bool
	// Done records how a permitted call ended.
	Done(failure bool)
	// IsFailure says whether a call's error counts against the dependency.
	IsFailure(err error) bool
	// State is the breaker's current state.
	State() BreakerState
	// Bind ties the breaker to one lane: from then on it reports its
	// transitions to changed, outside its own lock. A second Bind fails:
	// a breaker shared by two lanes would let one lane's failures close the
	// other's dependency off.
	Bind(lane string, changed func(from, to BreakerState)) error
}

// WithBreaker puts a circuit breaker in front of the lane's work: while it
// is open the lane rejects work at once with ReasonBreakerOpen, answered by
// the lane's policy like any rejection.
func WithBreaker(b Breaker) Option { return func(o *options) { o.breaker = b } }

// CircuitCode is the lane's diagnostic code for a rejection by its open
// breaker, ERR_<LANE>_CIRCUIT_OPEN.
func (s LaneSpec) CircuitCode() string {
	return "ERR_" + strings.ToUpper(s.Name) + "_CIRCUIT_OPEN"
}

// callerError marks an error as the caller's own doing.
type callerError struct{ err error }

func (e callerError) Error() string { return e.err.Error() }
func (e callerError) Unwrap() error { return e.err }

// CallerError marks err as the caller's fault (bad input, a 4xx answer):
// the dependency did its job, so a breaker does not count it as a failure.
// Nil stays nil.
func CallerError(err error) error {
	if err == nil {
		return nil
	}
	return callerError{err}
}

// IsCallerError reports whether err, or an error it wraps, was marked with
// [CallerError].
func IsCallerError(err error) bool {
	var ce callerError
	return errors.As(err, &ce)
}

// DependencyFailure is the default answer to "did the dependency fail?"
// for a call's error: nil, errors marked with [CallerError] and the
// caller's own cancellation (context.Canceled) are not failures; everything
// else is, timeouts (context.DeadlineExceeded, a stuck call cancelled at
// MaxRunTime) included.
func DependencyFailure(err error) bool {
	switch {
	case err == nil, IsCallerError(err):
		return false
	case errors.Is(err, ErrMaxRunTime), errors.Is(err, context.DeadlineExceeded):
		return true
	case errors.Is(err, context.Canceled):
		return false
	}
	return true
}

// breakerChanged is the executor's side of Bind: it reports the transition
// and feeds the recovery-lag tracker.
func (l *limiter) breakerChanged(from, to BreakerState) {
	l.mu.Lock()
	l.breakerState = to
	l.noteBreaker(to)
	l.mu.Unlock()
	if len(l.observers) > 0 {
		l.emit(Event{Kind: EventBreakerChanged, Lane: l.spec.Name, BreakerFrom: from, BreakerTo: to, At: l.clock.Now()})
	}
}

// breakerLane is implemented by executors; the HTTP middleware feeds a
// lane's breaker with the status codes its handler answers. A lane without
// a breaker is deliberately not told of 5xx answers: its recovery-lag
// tracker must see the dependency's answer even when the handler still
// fails for a reason inside the lane (its pool held by stuck sessions is
// what the lag alert and the pool reset are for; counting those 5xx as
// failures would postpone the alert forever: the recovery-lag drill).
type breakerLane interface{ hasBreaker() bool }

func (e *Executor[L]) hasBreaker() bool { return e.l.breaker != nil }

// ServerError is the error the HTTP middleware reports to a lane's breaker
// for a handler that answered 5xx: the dependency behind it failed. A 4xx
// answer is the caller's own error and is not counted.
type ServerError struct{ Status int }

func (e *ServerError) Error() string {
	return fmt.Sprintf("bulkhead: the handler answered %d", e.Status)
}

// serveCounted runs next and turns a 5xx answer into a *ServerError.
func serveCounted(w http.ResponseWriter, r *http.Request, next http.Handler) error {
	sw := &statusWriter{ResponseWriter: w}
	next.ServeHTTP(sw, r)
	if sw.status >= 500 {
		return &ServerError{Status: sw.status}
	}
	return nil
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach Flush and the deadlines.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush keeps streaming handlers, which assert http.Flusher, working.
func (w *statusWriter) Flush() {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
