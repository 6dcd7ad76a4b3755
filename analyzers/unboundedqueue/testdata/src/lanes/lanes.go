package lanes

import (
	"math"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
)

// ---- shape 6: runtime configuration ----

type Fraud struct{}

func (Fraud) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 30, MaxQueued: 5} // want `ERR_UNBOUNDED_QUEUE_DETECTED: bulkhead lane queue with no wait timeout: MaxQueued is 5 but QueueTimeout is not set, .*; set QueueTimeout`
}

type Reports struct{}

func (Reports) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 4, MaxQueued: math.MaxInt, QueueTimeout: time.Second} // want `bulkhead lane with an unlimited queue: MaxQueued math.MaxInt lets callers pile up`
}

type Exports struct{}

func (Exports) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 4, MaxQueued: -1} // want `bulkhead lane with an unlimited queue: MaxQueued -1`
}

type Ledger struct{}

func (Ledger) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 4, MaxQueued: 10, QueueTimeout: 0} // want `no wait timeout`
}

// Traps: the payment core's lanes.

type CardAuth struct{}

func (CardAuth) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 75, MaxQueued: 10, QueueTimeout: 250 * time.Millisecond}
}

type Tax struct{}

func (Tax) Spec() bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 15, MaxQueued: 0, RetryAfter: 5 * time.Second}
}

type Failfast struct{}

func (Failfast) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 15} }

func queueFromConfig(n int, wait time.Duration) bulkhead.LaneSpec {
	return bulkhead.LaneSpec{MaxConcurrent: 15, MaxQueued: n, QueueTimeout: wait}
}
