// Package bulkhead gives a Go service lanes: classes of work that each get
// their own share of capacity, so one slow dependency cannot take the whole
// service down.
//
// A lane is a type. Declare one per class of work, and let it describe its
// share:
//
//	type Tax struct{}
//
//	func (Tax) Spec() bulkhead.LaneSpec {
//		return bulkhead.LaneSpec{
//			MaxConcurrent: 15,                  // at most 15 tax calls at once
//			MaxQueued:     0,                   // none waiting: fail fast
//			Policy:        bulkhead.PolicyShed, // answer 503
//			RetryAfter:    5 * time.Second,     // Retry-After: 5
//		}
//	}
//
// and run the lane's work through its [Executor]:
//
//	var taxLane = bulkhead.MustExecutor[Tax]()
//
//	err := taxLane.Do(ctx, func(ctx context.Context) error { return callTaxAPI(ctx) })
//
// Because the lane is a type argument, Executor[Tax] and Executor[CardAuth]
// are different types, and bhlint's analyzers can see which lane a function
// runs in without reading strings.
//
// # Admission
//
// An executor runs at most MaxConcurrent calls. Callers that find every slot
// busy wait in a FIFO queue of at most MaxQueued places, each for at most
// QueueTimeout. A finishing call hands its slot straight to the first waiter,
// so a newcomer never slips in ahead of the queue, and the slot is released in
// a defer, so an error or a panic never leaks one. Work whose context ended
// while it waited is rejected and never started; work that starts gets the
// caller's context, so the time it queued has already come off its deadline.
//
// When the lane cannot run the work it returns a [*Rejection]: the lane, the
// [Reason] (queue full, wait timeout, deadline, saturated), and how long the
// caller should wait before retrying. Rejecting touches only the lane's own
// lock and costs well under a microsecond.
//
// Optionally, LaneSpec.Reserved keeps the last slots for work marked with
// [WithCritical], such as health checks and checkout.
//
// # Lane state
//
// Each lane is NORMAL, SATURATED or RECOVERING (see [State]), with
// hysteresis between 100% and 60% of its slots. A SATURATED lane fails fast
// instead of queueing. State changes are reported to [Observer]s, and the
// promlane subpackage exports them, with the lane's counts, queue waits and
// rejections, as Prometheus metrics.
//
// # Circuit breaker
//
// [WithBreaker] puts a circuit breaker in front of a lane's dependency (the
// lanebreaker subpackage has one, with the defaults of a payment service's
// fraud-vendor breaker: open when more than half of at least 20 calls in 30 seconds
// failed; after 30 seconds let 3 probe calls through, and close after 3
// successes in a row). While the breaker is open the lane rejects work at
// once with ReasonBreakerOpen and the code ERR_<LANE>_CIRCUIT_OPEN,
// answered like any rejection: the lane's 503 or 429 with Retry-After, or
// its fallback (MiddlewareConfig.OnReject). Timeouts count as failures; the
// caller's own errors ([CallerError], an HTTP 4xx answer) and the caller's
// cancellation do not (see [DependencyFailure]).
//
// # Stuck work
//
// LaneSpec.MaxRunTime bounds how long one call may run once admitted. Past
// it the work's context is cancelled (its cause wraps [ErrMaxRunTime]), the
// call is logged and reported ([EventStuck]) with its goroutine's stack,
// and counted. Its slot is released only when the work returns, never
// before, so the lane never runs more than MaxConcurrent calls, even stuck
// ones; Stats.Stuck counts those still running.
//
// # Recovery lag
//
// A lane lags in recovering when its dependency works again but the lane
// does not get back to normal. Precisely:
//
//  1. An incident starts when the lane turns SATURATED, or its breaker
//     opens, while at least LaneSpec.Baseline calls run (by default 60% of
//     its slots, rounded up).
//  2. During the incident, the dependency has answered normally again at
//     the first moment a call ends without a failure (as [DependencyFailure]
//     or the breaker's classification says) while the lane's breaker, if it
//     has one, is closed, or at the moment the breaker closes. A failure
//     after that takes the answer back: the next normal answer starts again.
//  3. If LaneSpec.RecoveryLag (10 seconds by default) after that answer the
//     lane still runs at least Baseline calls, it reports
//     ALERT_BULKHEAD_RECOVERY_LAG once: an error log line with that message,
//     [EventRecoveryLag] to its observers (promlane counts it and sets
//     bulkhead_recovery_lagging), Stats.Lagging, and it resets the pools
//     registered with [Executor.ResetOnRecoveryLag] (lanedb and lanepgx drop
//     their idle connections and end their sessions stuck in a transaction
//     for longer than their leak threshold).
//  4. The incident ends as soon as fewer than Baseline calls run;
//     [EventRecoveryLagEnded] reports the end of a lag.
//
// A lane whose dependency never answers again is in an outage, not lagging:
// saturation, shed rate and breaker alerts cover that.
//
// # HTTP
//
// [NewMiddleware] classifies requests into lanes by route and answers a
// rejection with the lane's policy: 503 or 429, a Retry-After header, and an
// RFC 9457 application/problem+json body whose code is
// ERR_<LANE>_BULKHEAD_SATURATED. A [RetryGuard] in front answers clients that
// retry more than 3 times in 10 seconds with 429 ERR_RETRY_STORM_BLOCKED.
//
// The package depends only on the standard library.
package bulkhead
