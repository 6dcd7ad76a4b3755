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
)

// Event is what an [Observer] is told. Fields not listed for a kind are zero.
type Event struct {
	Kind   EventKind
	Lane   string
	Wait   time.Duration
	Reason Reason
	From   State
	To     State
	At     time.Time
	// Seq numbers state changes of one lane from 1, so an observer that gets
	// them from several goroutines can put them in order.
	Seq    uint64
	Source StatsSource
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
}

// StatsSource is anything that can report a lane's stats; every executor is one.
type StatsSource interface {
	Stats() Stats
}
