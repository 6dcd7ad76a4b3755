package bulkhead

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Problem types (RFC 9457 "type" members) of the responses written here.
const (
	ProblemTypeSaturated   = "urn:bhlint:problem:bulkhead-saturated"
	ProblemTypeCircuitOpen = "urn:bhlint:problem:circuit-open"
	ProblemTypeRetryStorm  = "urn:bhlint:problem:retry-storm"
	ProblemTypeTenantQuota = "urn:bhlint:problem:tenant-quota"
	// CodeRetryStorm is the code of a response to a client that retries too often.
	CodeRetryStorm = "ERR_RETRY_STORM_BLOCKED"
)

// Runner is a lane that runs work; every *Executor[L] is one. The HTTP
// middleware holds lanes of different types through it.
type Runner interface {
	Spec() LaneSpec
	Do(ctx context.Context, fn func(ctx context.Context) error) error
}

// Handler runs next in the lane and answers a rejection with the lane's
// policy (see WriteRejection).
func (e *Executor[L]) Handler(next http.Handler) http.Handler {
	return laneHandler(e, next, nil)
}

// MiddlewareConfig configures [NewMiddleware].
type MiddlewareConfig struct {
	// Routes maps http.ServeMux patterns ("POST /v1/tax", "/fraud/") to the
	// lane that serves them. The most specific pattern wins, as in ServeMux.
	Routes map[string]Runner
	// Classify, if set, picks the lane instead of Routes; nil means no lane.
	Classify func(*http.Request) Runner
	// Default is the lane of requests no route matches. Nil lets them
	// through without a lane.
	Default Runner
	// Critical, if set, marks requests that may use a lane's reserved slots.
	Critical func(*http.Request) bool
	// Tenant, if set, names the tenant a request is served for (an API key,
	// an account header); the handler's context carries it (see
	// [TenantOf]), and per-tenant quotas (package tenant) key on it.
	Tenant func(*http.Request) string
	// RetryGuard, if set, blocks clients that retry rejected requests too often.
	RetryGuard *RetryGuard
	// OnReject, if set, may answer a rejection itself, for example by
	// handing the work to an async queue; it returns false to let the
	// middleware write the problem response.
	OnReject func(http.ResponseWriter, *http.Request, *Rejection) bool
}

// Middleware classifies each request into a lane and runs it there.
type Middleware struct {
	cfg MiddlewareConfig
	mux *http.ServeMux // matches Routes; its handlers are laneMarkers
}

type laneMarker struct{ r Runner }

func (laneMarker) ServeHTTP(http.ResponseWriter, *http.Request) {}

// NewMiddleware checks cfg and builds the middleware.
func NewMiddleware(cfg MiddlewareConfig) (m *Middleware, err error) {
	m = &Middleware{cfg: cfg, mux: http.NewServeMux()}
	defer func() { // ServeMux panics on a bad or conflicting pattern
		if p := recover(); p != nil {
			m, err = nil, fmt.Errorf("bulkhead: bad route in MiddlewareConfig.Routes: %v", p)
		}
	}()
	for pattern, r := range cfg.Routes {
		if r == nil {
			return nil, fmt.Errorf("bulkhead: route %q has no lane; give it an executor or remove it", pattern)
		}
		m.mux.Handle(pattern, laneMarker{r})
	}
	return m, nil
}

// Wrap returns next behind the middleware.
func (m *Middleware) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g := m.cfg.RetryGuard
		if g != nil && g.blocked(w, r) {
			return
		}
		lane := m.classify(r)
		if lane == nil {
			next.ServeHTTP(w, r)
			return
		}
		if m.cfg.Critical != nil && m.cfg.Critical(r) {
			r = r.WithContext(WithCritical(r.Context()))
		}
		if m.cfg.Tenant != nil {
			if t := m.cfg.Tenant(r); t != "" {
				r = r.WithContext(WithTenant(r.Context(), t))
			}
		}
		serveInLane(w, r, lane, next, &m.cfg)
	})
}

func (m *Middleware) classify(r *http.Request) Runner {
	if m.cfg.Classify != nil {
		return m.cfg.Classify(r)
	}
	if h, _ := m.mux.Handler(r); h != nil {
		if lm, ok := h.(laneMarker); ok {
			return lm.r
		}
	}
	return m.cfg.Default
}

// laneHandler runs next in lane and turns a rejection into a response.
func laneHandler(lane Runner, next http.Handler, cfg *MiddlewareConfig) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveInLane(w, r, lane, next, cfg)
	})
}

func serveInLane(w http.ResponseWriter, r *http.Request, lane Runner, next http.Handler, cfg *MiddlewareConfig) {
	err := lane.Do(r.Context(), func(ctx context.Context) error {
		if hasBreaker(lane) {
			return serveCounted(w, r.WithContext(ctx), next)
		}
		next.ServeHTTP(w, r.WithContext(ctx)) // ctx carries the lane: see LaneOf
		return nil
	})
	if err == nil {
		return
	}
	rej, ok := AsRejection(err)
	if !ok {
		return // the client went away before its turn: nobody to answer
	}
	if cfg != nil && cfg.OnReject != nil && cfg.OnReject(w, r, rej) {
		return
	}
	if cfg != nil && cfg.RetryGuard != nil {
		cfg.RetryGuard.noteRejection(r)
	}
	WriteRejection(w, rej)
}

// hasBreaker reports whether lane, or the lane a wrapper such as
// tenant.Lane runs its work in (its Unwrap), has a breaker the handler's
// 5xx answers should reach.
func hasBreaker(lane Runner) bool {
	for {
		if b, ok := lane.(breakerLane); ok {
			return b.hasBreaker()
		}
		u, ok := lane.(interface{ Unwrap() Runner })
		if !ok {
			return false
		}
		lane = u.Unwrap()
	}
}

// Problem is an RFC 9457 problem details body, with the bhlint extensions.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Code   string `json:"code"`
	Lane   string `json:"lane,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Tenant and Quota name the tenant and the quota that refused the
	// request, for rejections by a tenant's quota.
	Tenant string `json:"tenant,omitempty"`
	Quota  string `json:"quota,omitempty"`
	// RetryAfter is the Retry-After header's value, in seconds.
	RetryAfter int `json:"retry_after"`
}

// WriteRejection answers a rejection with the lane's policy: status 503 or
// 429, a Retry-After header, and an application/problem+json body whose code
// is ERR_<LANE>_BULKHEAD_SATURATED. A rejection by a tenant's quota is a 429
// whose body names the tenant and the quota.
func WriteRejection(w http.ResponseWriter, rej *Rejection) {
	secs := retryAfterSeconds(rej.RetryAfter)
	if rej.Reason.IsTenant() {
		writeTenantRejection(w, rej, secs)
		return
	}
	typ, title := ProblemTypeSaturated, "The service has no capacity for this kind of request right now"
	if rej.Reason == ReasonBreakerOpen {
		typ, title = ProblemTypeCircuitOpen, "The service is not calling a dependency that keeps failing right now"
	}
	WriteProblem(w, secs, Problem{
		Type:       typ,
		Title:      title,
		Status:     rej.Status,
		Detail:     fmt.Sprintf("The %s lane rejected the request (%s) without starting it. Retry after %d seconds.", rej.Lane, rej.Reason, secs),
		Code:       rej.Code,
		Lane:       rej.Lane,
		Reason:     rej.Reason.String(),
		RetryAfter: secs,
	})
}

func writeTenantRejection(w http.ResponseWriter, rej *Rejection, secs int) {
	WriteProblem(w, secs, Problem{
		Type:       ProblemTypeTenantQuota,
		Title:      "This tenant is over its quota for this kind of request",
		Status:     rej.Status,
		Detail:     fmt.Sprintf("The %s lane refused the request without starting it: tenant %q is over its %s. Retry after %d seconds.", rej.Lane, rej.Tenant, rej.Quota, secs),
		Code:       rej.Code,
		Lane:       rej.Lane,
		Reason:     rej.Reason.String(),
		Tenant:     rej.Tenant,
		Quota:      rej.Quota,
		RetryAfter: secs,
	})
}

// WriteProblem writes p as application/problem+json with a Retry-After header.
func WriteProblem(w http.ResponseWriter, retryAfterSecs int, p Problem) {
	body, err := json.Marshal(p)
	if err != nil { // cannot happen: Problem has only strings and ints
		body = []byte(`{"title":"internal error"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/problem+json")
	h.Set("Retry-After", strconv.Itoa(retryAfterSecs))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	_, _ = w.Write(body)
}

// retryAfterSeconds rounds up: telling a client to come back sooner than the
// lane asked defeats the point. Never below 1, which HTTP would read as "now".
func retryAfterSeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	return max(s, 1)
}
