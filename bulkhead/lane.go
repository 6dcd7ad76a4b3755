package bulkhead

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"time"
	"unicode"
)

// Lane is implemented by the types that name a lane. A lane type is usually
// an empty struct whose Spec method describes the lane's share of capacity:
//
//	type Tax struct{}
//
//	func (Tax) Spec() bulkhead.LaneSpec {
//		return bulkhead.LaneSpec{MaxConcurrent: 15, Policy: bulkhead.PolicyShed, RetryAfter: 5 * time.Second}
//	}
//
// The lane type is the type argument of [Executor], so Executor[Tax] and
// Executor[CardAuth] are different types that the compiler and bhlint's
// analyzers can tell apart.
type Lane interface {
	Spec() LaneSpec
}

// LaneSpec describes one lane: how much work it may run and hold, and how it
// answers when it is full.
type LaneSpec struct {
	// Name is the lane's name in errors, metrics and HTTP problem codes. It
	// must be lower snake case. Empty means the lane type's name in snake
	// case (CardAuth becomes "card_auth").
	Name string
	// MaxConcurrent is how many calls may run in the lane at once. Required.
	MaxConcurrent int
	// MaxQueued is how many callers may wait for a slot. 0 means fail fast:
	// a caller that finds every slot busy is rejected at once.
	MaxQueued int
	// QueueTimeout is the longest a caller waits in the queue. Required when
	// MaxQueued > 0, because a queue without a timeout only moves the pile-up
	// from the dependency into this process.
	QueueTimeout time.Duration
	// Reserved keeps the last Reserved slots for work marked critical with
	// [WithCritical] (health checks, checkout). Must be below MaxConcurrent.
	Reserved int
	// Policy is how a rejection is answered over HTTP: 503 or 429.
	Policy Policy
	// RetryAfter is what a rejected caller is told to wait before retrying.
	// Default 5s (the payment spec's Retry-After: 5).
	RetryAfter time.Duration
	// RecoverAfter is how long the lane must stay below 60% of its slots
	// before a RECOVERING lane counts as NORMAL again. Default 10s.
	RecoverAfter time.Duration
	// MaxRunTime is the longest one call may run once it has its slot. Past
	// it the work's context is cancelled (its cause wraps ErrMaxRunTime),
	// the call is reported as stuck with its goroutine's stack, and its slot
	// is released only when the work returns. 0 means no limit; the payment
	// spec uses 10s. Reading another goroutine's stack takes a dump of all
	// of them, which pauses the process briefly: once per stuck call.
	MaxRunTime time.Duration
	// Baseline is the number of running calls below which the lane counts as
	// back to normal after an incident, for recovery lag (see the package
	// documentation). 0 means 60% of MaxConcurrent, rounded up: the mark
	// below which a SATURATED lane turns RECOVERING. A lane without a queue
	// whose Baseline is all its slots is never reported as lagging: its
	// first call to end takes it below the baseline.
	Baseline int
	// RecoveryLag is how long the lane may stay at or above Baseline after
	// its dependency answers normally again before the lane reports
	// ALERT_BULKHEAD_RECOVERY_LAG and resets its pools. Default 10s.
	RecoveryLag time.Duration
}

// Policy is how a lane's rejection is answered over HTTP.
type Policy uint8

const (
	// PolicyShed answers 503 Service Unavailable: the lane sheds load.
	PolicyShed Policy = iota
	// PolicyThrottle answers 429 Too Many Requests: the caller should back off.
	PolicyThrottle
)

// Status is the HTTP status code the policy answers with.
func (p Policy) Status() int {
	if p == PolicyThrottle {
		return http.StatusTooManyRequests
	}
	return http.StatusServiceUnavailable
}

func (p Policy) String() string {
	switch p {
	case PolicyShed:
		return "shed"
	case PolicyThrottle:
		return "throttle"
	}
	return fmt.Sprintf("Policy(%d)", uint8(p))
}

const (
	defaultRetryAfter   = 5 * time.Second
	defaultRecoverAfter = 10 * time.Second
	defaultRecoveryLag  = 10 * time.Second
)

// resolveSpec reads the lane type's spec, fills the defaults and checks it.
func resolveSpec[L Lane]() (LaneSpec, error) {
	var lane L
	spec := lane.Spec()
	if spec.Name == "" {
		spec.Name = snakeCase(laneTypeName(reflect.TypeFor[L]()))
	}
	if spec.RetryAfter == 0 {
		spec.RetryAfter = defaultRetryAfter
	}
	if spec.RecoverAfter == 0 {
		spec.RecoverAfter = defaultRecoverAfter
	}
	if spec.RecoveryLag == 0 {
		spec.RecoveryLag = defaultRecoveryLag
	}
	if spec.Baseline == 0 && spec.MaxConcurrent > 0 {
		spec.Baseline = (60*spec.MaxConcurrent + 99) / 100
	}
	return spec, spec.validate()
}

func (s LaneSpec) validate() error {
	switch {
	case !validName(s.Name):
		return fmt.Errorf("bulkhead: lane name %q is not lower snake case; set LaneSpec.Name to something like \"card_auth\"", s.Name)
	case s.MaxConcurrent < 1:
		return fmt.Errorf("bulkhead: lane %q has MaxConcurrent %d; set it to the number of calls the lane may run at once (at least 1)", s.Name, s.MaxConcurrent)
	case s.MaxQueued < 0:
		return fmt.Errorf("bulkhead: lane %q has MaxQueued %d; use 0 to fail fast or a positive queue length", s.Name, s.MaxQueued)
	case s.MaxQueued > 0 && s.QueueTimeout <= 0:
		return fmt.Errorf("bulkhead: lane %q queues up to %d callers but has no QueueTimeout; a queue without a timeout never closes, so set QueueTimeout (for example 250ms) or MaxQueued to 0", s.Name, s.MaxQueued)
	case s.Reserved < 0 || s.Reserved >= s.MaxConcurrent:
		return fmt.Errorf("bulkhead: lane %q reserves %d of %d slots for critical work; Reserved must be at least 0 and leave one slot for ordinary work", s.Name, s.Reserved, s.MaxConcurrent)
	case s.Policy != PolicyShed && s.Policy != PolicyThrottle:
		return fmt.Errorf("bulkhead: lane %q has unknown %v; use PolicyShed or PolicyThrottle", s.Name, s.Policy)
	case s.RetryAfter < 0 || s.RecoverAfter < 0:
		return fmt.Errorf("bulkhead: lane %q has a negative RetryAfter or RecoverAfter; use 0 for the default", s.Name)
	case s.MaxRunTime < 0:
		return fmt.Errorf("bulkhead: lane %q has MaxRunTime %s; use 0 for no limit or how long one call may run (the payment spec uses 10s)", s.Name, s.MaxRunTime)
	case s.Baseline < 0 || s.Baseline > s.MaxConcurrent:
		return fmt.Errorf("bulkhead: lane %q has Baseline %d; it is a number of running calls between 1 and MaxConcurrent (%d), or 0 for 60%% of MaxConcurrent", s.Name, s.Baseline, s.MaxConcurrent)
	case s.RecoveryLag < 0:
		return fmt.Errorf("bulkhead: lane %q has a negative RecoveryLag; use 0 for the default (10s)", s.Name)
	}
	return nil
}

// Code is the lane's diagnostic code for a rejection, ERR_<LANE>_BULKHEAD_SATURATED.
func (s LaneSpec) Code() string {
	return "ERR_" + strings.ToUpper(s.Name) + "_BULKHEAD_SATURATED"
}

func laneTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	name := t.Name()
	if i := strings.IndexByte(name, '['); i >= 0 {
		name = name[:i] // a generic lane type: drop the type arguments
	}
	return name
}

// snakeCase turns a Go type name into a lane name: CardAuth → card_auth,
// HTTPProxy → http_proxy.
func snakeCase(s string) string {
	rs := []rune(s)
	var b strings.Builder
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 {
			prevLower := unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || (unicode.IsUpper(rs[i-1]) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func validName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// TenantCode is the lane's diagnostic code for a rejection by a tenant's
// quota, ERR_<LANE>_TENANT_QUOTA_EXCEEDED.
func (s LaneSpec) TenantCode() string {
	return "ERR_" + strings.ToUpper(s.Name) + "_TENANT_QUOTA_EXCEEDED"
}
