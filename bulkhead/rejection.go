package bulkhead

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrRejected matches every [*Rejection] with errors.Is, for callers that only
// need to know that a lane turned the work away.
var ErrRejected = errors.New("bulkhead: rejected")

// Reason says why a lane rejected work.
type Reason uint8

const (
	// ReasonQueueFull: every slot was busy and the queue was full.
	ReasonQueueFull Reason = iota
	// ReasonWaitTimeout: the caller waited the lane's QueueTimeout without getting a slot.
	ReasonWaitTimeout
	// ReasonDeadline: the caller's context deadline passed before the work could start.
	ReasonDeadline
	// ReasonSaturated: every slot was busy and the lane does not queue, either
	// because it has no queue or because it is SATURATED and fails fast.
	ReasonSaturated
	// ReasonBreakerOpen: the lane's circuit breaker is open: its dependency
	// failed too often lately, so the lane does not call it (see [Breaker]).
	ReasonBreakerOpen
	// ReasonTenantConcurrency: the caller's tenant already runs as many calls
	// in the lane as its concurrency quota allows (package tenant).
	ReasonTenantConcurrency
	// ReasonTenantRate: the caller's tenant has used up its token bucket;
	// RetryAfter is when the next token comes (package tenant).
	ReasonTenantRate
	// ReasonTenantShare: the lane is contended and the caller's tenant runs
	// more than its fair share of it (package tenant).
	ReasonTenantShare
)

// Reasons lists every Reason a lane's executor gives, for metrics that want
// all label values up front. The tenant reasons are in [TenantReasons].
var Reasons = [5]Reason{ReasonQueueFull, ReasonWaitTimeout, ReasonDeadline, ReasonSaturated, ReasonBreakerOpen}

// TenantReasons lists the reasons of per-tenant quotas (package tenant).
var TenantReasons = [3]Reason{ReasonTenantConcurrency, ReasonTenantRate, ReasonTenantShare}

// IsTenant reports whether the rejection came from a tenant's quota, not
// from the lane's own capacity.
func (r Reason) IsTenant() bool {
	return r == ReasonTenantConcurrency || r == ReasonTenantRate || r == ReasonTenantShare
}

// String is the reason's metric label value.
func (r Reason) String() string {
	switch r {
	case ReasonQueueFull:
		return "queue_full"
	case ReasonWaitTimeout:
		return "wait_timeout"
	case ReasonDeadline:
		return "deadline"
	case ReasonSaturated:
		return "saturated"
	case ReasonBreakerOpen:
		return "breaker_open"
	case ReasonTenantConcurrency:
		return "tenant_concurrency"
	case ReasonTenantRate:
		return "tenant_rate"
	case ReasonTenantShare:
		return "tenant_fair_share"
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Rejection is the error a lane returns when it does not run the work. The
// work was never started. Read it with errors.As:
//
//	var rej *bulkhead.Rejection
//	if errors.As(err, &rej) { ... rej.Lane, rej.Reason, rej.RetryAfter ... }
type Rejection struct {
	// Lane is the name of the lane that rejected the work.
	Lane string
	// Reason is why.
	Reason Reason
	// RetryAfter is how long the caller should wait before trying again.
	RetryAfter time.Duration
	// Waited is how long the work waited in the queue before it was rejected.
	Waited time.Duration
	// Status is the HTTP status of the lane's policy: 503 or 429.
	Status int
	// Code is the lane's diagnostic code, ERR_<LANE>_BULKHEAD_SATURATED, or
	// ERR_<LANE>_CIRCUIT_OPEN for ReasonBreakerOpen, or
	// ERR_<LANE>_TENANT_QUOTA_EXCEEDED for the tenant reasons.
	Code string
	// Tenant is the tenant whose quota refused the work (tenant reasons only).
	Tenant string
	// Quota names the quota that refused it, with its terms, such as
	// "rate of 50 a second, burst 100" (tenant reasons only).
	Quota string

	limit, queueCap int
}

func (r *Rejection) Error() string {
	return fmt.Sprintf("bulkhead: lane %q rejected the work, which was not started: %s; retry after %s",
		r.Lane, r.why(), r.RetryAfter)
}

func (r *Rejection) why() string {
	switch r.Reason {
	case ReasonQueueFull:
		return fmt.Sprintf("all %d slots are busy and all %d queue places are taken", r.limit, r.queueCap)
	case ReasonWaitTimeout:
		return fmt.Sprintf("it waited %s in the queue, the lane's QueueTimeout, without a free slot", r.Waited)
	case ReasonDeadline:
		return "the caller's deadline passed before a slot was free"
	case ReasonSaturated:
		if r.queueCap == 0 {
			return fmt.Sprintf("all %d slots are busy and the lane queues nothing", r.limit)
		}
		return fmt.Sprintf("all %d slots are busy and the lane is saturated, so it fails fast instead of queueing", r.limit)
	case ReasonBreakerOpen:
		return "the lane's circuit breaker is open because its dependency failed too often lately"
	case ReasonTenantConcurrency, ReasonTenantRate, ReasonTenantShare:
		return fmt.Sprintf("tenant %q is over its %s", r.Tenant, r.Quota)
	}
	return r.Reason.String()
}

// Is makes errors.Is(err, ErrRejected) true for every Rejection.
func (r *Rejection) Is(target error) bool { return target == ErrRejected }

// Unwrap lets errors.Is(err, context.DeadlineExceeded) see a deadline rejection.
func (r *Rejection) Unwrap() error {
	if r.Reason == ReasonDeadline {
		return context.DeadlineExceeded
	}
	return nil
}

// AsRejection returns the Rejection in err's chain, if there is one.
func AsRejection(err error) (*Rejection, bool) {
	var r *Rejection
	ok := errors.As(err, &r)
	return r, ok
}
