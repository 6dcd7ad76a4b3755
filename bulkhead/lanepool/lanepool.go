// Package lanepool holds what the lane-typed pools of the bulkhead module
// share: their configuration, their errors, their statistics and the events
// they report. The pools themselves live in lanedb (database/sql) and lanepgx
// (pgx v5 pgxpool); promlane exports their metrics.
//
// A lane's pool has a connection budget (required: no pool is unlimited), a
// bounded number of callers that may wait for a connection, and an acquire
// timeout that is separate from the timeout of the query run on the
// connection. A connection held longer than LeakThreshold is reported with
// the stack that acquired it. Work admitted by a bulkhead.Executor carries
// its lane in its context (bulkhead.LaneOf), and a pool used from another
// lane's work fails with a [*CrossLaneError], or, with GuardLog, counts and
// logs it.
//
// The package imports only the standard library and the bulkhead core.
package lanepool

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
)

// DefaultLeakThreshold is how long a connection may be held before it is
// reported as leaked, when Config.LeakThreshold is 0 (2,000 ms, the payment core's leak threshold).
const DefaultLeakThreshold = 2000 * time.Millisecond

// Config is the configuration of one lane's pool.
type Config struct {
	// MaxConns is the lane's connection budget: the pool never holds more
	// connections than this, open or in use. Required.
	MaxConns int
	// MaxWaiters is how many callers may wait for a connection when all
	// MaxConns are in use. 0 means none: a caller that finds every
	// connection busy fails at once.
	MaxWaiters int
	// AcquireTimeout is the longest a caller waits for a connection,
	// including the time to open one. It is separate from the query's own
	// timeout (the caller's context), which starts counting once the
	// connection is there. Required.
	AcquireTimeout time.Duration
	// LeakThreshold: a connection held longer than this is reported (see
	// OnLeak) with the stack that acquired it. 0 means DefaultLeakThreshold;
	// negative turns leak detection off.
	LeakThreshold time.Duration
	// OnLeak is called for each connection held past LeakThreshold, from
	// the pool's leak timer (not the holder's goroutine); it should not block.
	// Default: a warning on Logger with the acquiring stack.
	OnLeak func(Leak)
	// Guard is what happens when work of another lane uses the pool.
	Guard GuardMode
	// Logger receives leak reports and GuardLog violations. Default slog.Default().
	Logger *slog.Logger
	// Observers receive the pool's events, such as the promlane collector.
	Observers []Observer
	// RetryAfter is what a caller whose acquire failed is told to wait.
	// Default: the lane's LaneSpec.RetryAfter.
	RetryAfter time.Duration

	// ApplicationName is the application_name of the pool's PostgreSQL
	// sessions, so pg_stat_activity shows which lane holds what. Default:
	// the lane's name.
	ApplicationName string
	// MaxIdleConns, ConnMaxLifetime and ConnMaxIdleTime are passed to the
	// underlying pool; zero keeps its default (idle connections up to
	// MaxConns).
	MaxIdleConns    int
	ConnMaxLifetime time.Duration
	ConnMaxIdleTime time.Duration
}

// Resolve fills cfg's defaults for the lane and checks it. resource names
// the pool in errors ("lanedb.DB[Tax]").
func (cfg Config) Resolve(spec bulkhead.LaneSpec, resource string) (Config, error) {
	switch {
	case cfg.MaxConns < 1:
		return cfg, fmt.Errorf("%s: MaxConns is %d; set it to the lane's connection budget (lane %q), a pool without one is the shared failure domain this package exists to prevent", resource, cfg.MaxConns, spec.Name)
	case cfg.MaxWaiters < 0:
		return cfg, fmt.Errorf("%s: MaxWaiters is %d; use 0 to fail fast or a positive number of callers that may wait", resource, cfg.MaxWaiters)
	case cfg.AcquireTimeout <= 0:
		return cfg, fmt.Errorf("%s: AcquireTimeout is %s; set how long a caller may wait for a connection (for example 250ms), separately from the query timeout", resource, cfg.AcquireTimeout)
	case cfg.Guard > GuardOff:
		return cfg, fmt.Errorf("%s: unknown GuardMode %d", resource, cfg.Guard)
	case cfg.MaxIdleConns < 0 || cfg.MaxIdleConns > cfg.MaxConns:
		return cfg, fmt.Errorf("%s: MaxIdleConns %d must be between 0 and MaxConns %d", resource, cfg.MaxIdleConns, cfg.MaxConns)
	}
	if cfg.LeakThreshold == 0 {
		cfg.LeakThreshold = DefaultLeakThreshold
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = spec.RetryAfter
	}
	if cfg.ApplicationName == "" {
		cfg.ApplicationName = spec.Name
	}
	if cfg.MaxIdleConns == 0 {
		cfg.MaxIdleConns = cfg.MaxConns
	}
	return cfg, nil
}

// GuardMode is what a pool does when work of another lane uses it.
type GuardMode uint8

const (
	// GuardFail rejects the use with a *CrossLaneError. The default.
	GuardFail GuardMode = iota
	// GuardLog lets the use through, counts it (Stats.CrossLane, the
	// promlane counter) and logs it on Config.Logger.
	GuardLog
	// GuardOff does not check.
	GuardOff
)

// CrossLaneError is the error of work in one lane using a pool of another:
// the two lanes now share a failure domain.
type CrossLaneError struct {
	// Resource is the pool, e.g. "lanedb.DB[Tax]".
	Resource string
	// Owner is the lane the pool belongs to; Caller the lane of the work.
	Owner, Caller string
}

func (e *CrossLaneError) Error() string {
	return fmt.Sprintf("ERR_SHARED_FAILURE_DOMAIN_DETECTED: work of lane %q used %s, which belongs to lane %q; "+
		"give lane %q its own pool so a slow %s cannot take %s's connections (or %s's slowness %s's)",
		e.Caller, e.Resource, e.Owner, e.Caller, e.Owner, e.Caller, e.Caller, e.Owner)
}

// Is makes errors.Is(err, ErrCrossLane) true.
func (e *CrossLaneError) Is(target error) bool { return target == ErrCrossLane }

// ErrCrossLane matches every *CrossLaneError with errors.Is.
var ErrCrossLane = errors.New("bulkhead: pool used from another lane")

// Reason says why an acquire failed.
type Reason uint8

const (
	// ReasonTimeout: the caller waited AcquireTimeout without a connection.
	ReasonTimeout Reason = iota
	// ReasonWaitersFull: every connection was in use and MaxWaiters callers were waiting already.
	ReasonWaitersFull
	// ReasonDeadline: the caller's deadline passed before a connection was there.
	ReasonDeadline
	// ReasonCanceled: the caller's context was canceled while it waited.
	ReasonCanceled
	// ReasonConnect: opening a connection failed (Err says why).
	ReasonConnect
	// ReasonClosed: the pool is closed.
	ReasonClosed
)

// Reasons lists every Reason, for metrics that want all label values up front.
var Reasons = [...]Reason{ReasonTimeout, ReasonWaitersFull, ReasonDeadline, ReasonCanceled, ReasonConnect, ReasonClosed}

func (r Reason) String() string {
	switch r {
	case ReasonTimeout:
		return "timeout"
	case ReasonWaitersFull:
		return "waiters_full"
	case ReasonDeadline:
		return "deadline"
	case ReasonCanceled:
		return "canceled"
	case ReasonConnect:
		return "connect"
	case ReasonClosed:
		return "closed"
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// AcquireError is the error of an acquire that got no connection. Nothing
// was run on the database.
type AcquireError struct {
	Lane     string
	Resource string
	Reason   Reason
	// Waited is how long the caller waited.
	Waited time.Duration
	// RetryAfter is how long the caller should wait before trying again.
	RetryAfter time.Duration
	// Budget and Waiters are the pool's MaxConns and MaxWaiters.
	Budget, Waiters int
	// Err is the cause for ReasonConnect, ReasonDeadline and ReasonCanceled.
	Err error
	// Dialing: a new connection was being opened for the caller when it
	// gave up, and none was free. The dial goes on without it, and its
	// connection serves a later caller (see the package documentation).
	Dialing bool
}

func (e *AcquireError) Error() string {
	var why string
	switch e.Reason {
	case ReasonTimeout:
		why = fmt.Sprintf("all %d connections stayed in use for the acquire timeout (%s)", e.Budget, e.Waited.Round(time.Millisecond))
		if e.Dialing {
			why = fmt.Sprintf("opening a new connection took longer than the acquire timeout (%s); the dial goes on and its connection will serve a later caller", e.Waited.Round(time.Millisecond))
		}
	case ReasonWaitersFull:
		why = fmt.Sprintf("all %d connections are in use and %d callers are waiting already", e.Budget, e.Waiters)
	case ReasonDeadline:
		why = "the caller's deadline passed before a connection was free"
		if e.Dialing {
			why = "the caller's deadline passed while a new connection was being opened"
		}
	case ReasonCanceled:
		why = "the caller gave up while waiting"
	case ReasonConnect:
		why = fmt.Sprintf("opening a connection failed: %v", e.Err)
	case ReasonClosed:
		why = "the pool is closed"
	default:
		why = e.Reason.String()
	}
	return fmt.Sprintf("bulkhead: lane %q got no connection from %s: %s; nothing was run, retry after %s", e.Lane, e.Resource, why, e.RetryAfter)
}

// Unwrap returns the cause.
func (e *AcquireError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, bulkhead.ErrRejected) true when the pool turned
// the work away for lack of capacity (timeout, waiters full), so callers can
// shed it as they shed a lane's rejection.
func (e *AcquireError) Is(target error) bool {
	return target == bulkhead.ErrRejected && (e.Reason == ReasonTimeout || e.Reason == ReasonWaitersFull)
}

// Leak is a connection held longer than the pool's LeakThreshold.
type Leak struct {
	Lane     string
	Resource string
	// AcquiredAt is when the connection was acquired; Held how long it had
	// been held when reported.
	AcquiredAt time.Time
	Held       time.Duration
	// Stack is where it was acquired, one "function\n\tfile:line" per frame.
	Stack string
}

// Stats is a snapshot of a lane's pool.
type Stats struct {
	Lane     string
	Resource string
	// Budget is MaxConns; MaxWaiters the waiting bound.
	Budget, MaxWaiters int
	// InUse is connections held by callers; Idle connections open and free
	// in the underlying pool; Waiting callers waiting for one.
	InUse, Idle, Waiting int
	// Pending is slots of the budget taken with no connection held by a
	// caller: a connection being opened for an admitted caller, a dial that
	// goes on after its caller gave up, a broken session the server has not
	// ended yet. They count against MaxConns until they are gone, so the
	// budget holds in pg_stat_activity.
	Pending int
	// Counters since the pool opened.
	Acquired  uint64        // acquires that got a connection
	Timeouts  uint64        // acquires that failed with ReasonTimeout or ReasonDeadline
	Failed    uint64        // every failed acquire, timeouts included
	Leaks     uint64        // connections reported as leaked
	CrossLane uint64        // uses from another lane (rejected or, with GuardLog, let through)
	WaitTotal time.Duration // total time successful acquires waited
}

// Source is anything that reports a pool's stats; every lane pool is one.
type Source interface {
	PoolStats() Stats
}

// EventKind says what an [Event] reports.
type EventKind uint8

const (
	// EventAttached is sent once when the pool opens; Source reads its live stats.
	EventAttached EventKind = iota
	// EventAcquired: a caller got a connection after waiting Wait.
	EventAcquired
	// EventAcquireFailed: an acquire failed for Reason after waiting Wait.
	EventAcquireFailed
	// EventLeak: a connection was held past the threshold; Leak has the details.
	EventLeak
	// EventCrossLane: work of lane Caller used the pool.
	EventCrossLane
	// EventClosed is sent once when the pool closes.
	EventClosed
)

// Event is what an [Observer] is told.
type Event struct {
	Kind     EventKind
	Lane     string
	Resource string
	Wait     time.Duration
	Reason   Reason
	Caller   string
	Leak     *Leak
	Source   Source
}

// Observer receives a pool's events. ObservePool is called on the path of
// the work, possibly from several goroutines at once: it must be fast and
// must not block.
type Observer interface {
	ObservePool(Event)
}

// ObserverFunc adapts a func to [Observer].
type ObserverFunc func(Event)

// ObservePool calls f(e).
func (f ObserverFunc) ObservePool(e Event) { f(e) }
