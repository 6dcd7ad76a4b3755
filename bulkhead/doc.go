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
// # HTTP
//
// [NewMiddleware] classifies requests into lanes by route and answers a
// rejection with the lane's policy: 503 or 429, a Retry-After header, and an
// RFC 9457 application/problem+json body whose code is
// ERR_<LANE>_BULKHEAD_SATURATED. A [RetryGuard] in front answers clients that
// retry more than 3 times in 10 seconds with 429 ERR_RETRY_STORM_BLOCKED.
//
// The package imports only the standard library.
package bulkhead
