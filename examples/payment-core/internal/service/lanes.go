package service

import (
	"time"

	"github.com/bhlint/bhlint/bulkhead"
)

// The lanes of the payment spec (see docs/ARCHITECTURE.md), at the spec's
// sizes: the drill scales the load down to what two cores can drive, not the
// budgets, so a slow tax API fills the tax lane exactly as it would in
// production.
//
//	lane       workers  queue  DB conns  when full
//	card_auth       75     10        40  429, Retry-After: 1
//	fraud           30      5        15  202 pending_fraud (async scoring queue)
//	tax             15      0         5  503, Retry-After: 5, verified estimate
const (
	CardAuthWorkers, CardAuthQueue, CardAuthConns = 75, 10, 40
	FraudWorkers, FraudQueue, FraudConns          = 30, 5, 15
	TaxWorkers, TaxQueue, TaxConns                = 15, 0, 5

	// fraudQueueWorkers score, outside the lane's executor, what the fraud
	// lane degraded to its async queue; they use the fraud pool too.
	fraudQueueWorkers = 2
	// FraudQueueCapacity is the async queue's places: 150 s of the spec's
	// 150 fraud scores a second, enough for a fraud-vendor outage plus the
	// breaker's 30 s open time before the queue turns callers away (429).
	FraudQueueCapacity = 22500
	// FraudDrainRate is the most queued scores the workers send the fraud
	// service a second, so a recovered vendor is not hit with the backlog
	// at once.
	FraudDrainRate = 50.0

	// SharedWorkers and SharedConns are the incident's shared Tomcat pool
	// and HikariCP pool, used by the "before" mode.
	SharedWorkers, SharedConns = 120, 60
	// SharedQueue is Tomcat's default accept queue.
	SharedQueue = 100
)

// How long a lane's caller waits for one of the lane's PostgreSQL
// connections before the request is turned away as the lane turns it away
// (lanepool.Config.AcquireTimeout): a quarter of card_auth's and fraud's 1 s
// deadline; for tax, what is left of its 3 s deadline after the tax API's
// 2 s timeout, with room for the statement.
const (
	CardAuthAcquireTimeout = 250 * time.Millisecond
	FraudAcquireTimeout    = 250 * time.Millisecond
	TaxAcquireTimeout      = 500 * time.Millisecond
)

// MaxRunTime is the spec's longest run of one call in a lane: past it the
// call's context is cancelled and it is reported as stuck, with its stack.
// Every lane's deadline is well inside it; only work that ignores its
// deadline reaches it.
const MaxRunTime = 10 * time.Second

// CardAuth is the card authorisation lane: critical, rejects with 429.
type CardAuth struct{}

// Spec implements bulkhead.Lane.
func (CardAuth) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{
		MaxConcurrent: CardAuthWorkers,
		MaxQueued:     CardAuthQueue,
		QueueTimeout:  50 * time.Millisecond, // inside the 120 ms p99 budget
		Policy:        bulkhead.PolicyThrottle,
		RetryAfter:    time.Second,
		MaxRunTime:    MaxRunTime,
	}
}

// Fraud is the fraud scoring lane: degrades to the async scoring queue.
type Fraud struct{}

// Spec implements bulkhead.Lane.
func (Fraud) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{
		MaxConcurrent: FraudWorkers,
		MaxQueued:     FraudQueue,
		QueueTimeout:  50 * time.Millisecond,
		Policy:        bulkhead.PolicyThrottle,
		RetryAfter:    2 * time.Second,
		MaxRunTime:    MaxRunTime,
	}
}

// Tax is the tax quote lane: degradable, queues nothing, sheds with 503.
type Tax struct{}

// Spec implements bulkhead.Lane.
func (Tax) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{
		MaxConcurrent: TaxWorkers,
		MaxQueued:     TaxQueue,
		Policy:        bulkhead.PolicyShed,
		RetryAfter:    5 * time.Second,
		MaxRunTime:    MaxRunTime,
	}
}

// Shared is the "before" mode's single worker pool: every kind of work
// shares 120 workers and a queue of 100, as the incident's Tomcat did. The
// queue's timeout is longer than every request's deadline, so in practice a
// request waits until its own deadline, like a Tomcat request in the accept
// queue.
type Shared struct{}

// Spec implements bulkhead.Lane.
func (Shared) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{
		MaxConcurrent: SharedWorkers,
		MaxQueued:     SharedQueue,
		QueueTimeout:  15 * time.Second,
		Policy:        bulkhead.PolicyShed,
		RetryAfter:    5 * time.Second,
	}
}
