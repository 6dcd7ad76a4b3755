package bulkhead

import "time"

// EventKind says what an [Event] reports.
type EventKind uint8

const (
	// EventAttached is sent once, when the executor is created; Source reads its live stats.
	EventAttached EventKind = iota
	// EventAdmitted: work got a slot; Wait is how long it queued (0 if it did not).
	EventAdmitted
	// EventRejected: work was rejected for Reason.
	EventRejected
	// EventStateChanged: the lane went From one state To another At a time.
	EventStateChanged
	// EventBreakerChanged: the lane's circuit breaker went BreakerFrom one
	// state BreakerTo another At a time.
	EventBreakerChanged
	// EventStuck: a call ran past the lane's MaxRunTime (Wait) and its
	// context was cancelled; Stack is its goroutine's stack at that moment.
	// Its slot stays taken until it returns.
	EventStuck
	// EventRecoveryLag is ALERT_BULKHEAD_RECOVERY_LAG: the lane's dependency
	// answered normally again Wait ago, yet the lane still runs Active
	// calls, at or above its Baseline. The lane's pools are being reset.
	EventRecoveryLag
	// EventRecoveryLagEnded: a lane that reported recovery lag is below its
	// Baseline again; Wait is how long after the dependency answered.
	EventRecoveryLagEnded
)

// Event is what an [Observer] is told. Fields not listed for a kind are zero.
type Event struct {
	Kind   EventKind
	Lane   string
	Wait   time.Duration
	Reason Reason
	From   State
	To     State

	BreakerFrom, BreakerTo BreakerState

	At time.Time
	// Seq numbers state changes of one lane from 1, so an observer that gets
	// them from several goroutines can put them in order.
	Seq    uint64
	Source StatsSource
	// Active is the calls running when a recovery lag was reported.
	Active int
	// Stack is the stuck goroutine's stack, for EventStuck.
	Stack string
}

// Observer receives an executor's events. Observe is called outside the
// executor's lock, possibly from several goroutines at once, on the path of
// the work itself: it must be fast and must not block.
type Observer interface {
	Observe(Event)
}

// ObserverFunc adapts a func to [Observer].
type ObserverFunc func(Event)

// Observe calls f(e).
func (f ObserverFunc) Observe(e Event) { f(e) }

// Stats is a snapshot of a lane.
type Stats struct {
	Lane          string
	Limit         int // MaxConcurrent
	Reserved      int
	QueueCapacity int // MaxQueued
	Active        int // calls running now
	Queued        int // callers waiting now
	State         State
	Breaker       BreakerState // BreakerClosed when the lane has no breaker
	Stuck         int          // calls running past MaxRunTime now
	Lagging       bool         // the lane reported recovery lag and is not below Baseline yet
}

// StatsSource is anything that can report a lane's stats; every executor is one.
type StatsSource interface {
	Stats() Stats
}
