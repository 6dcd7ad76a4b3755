package bulkhead

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// RetryGuardConfig configures a [RetryGuard]. Zero fields take the payment
// core's defaults: more than 3 retries in 10s are blocked with Retry-After: 5.
type RetryGuardConfig struct {
	// Key identifies a client. Default: the host part of r.RemoteAddr. Use a
	// header (an API key, X-Forwarded-For set by your own proxy) when clients
	// share addresses.
	Key func(*http.Request) string
	// MaxRetries is how many retries are allowed within Window. Default 3.
	MaxRetries int
	// Window is how long after a rejection the client's requests count as
	// retries. Default 10s.
	Window time.Duration
	// RetryAfter is what a blocked client is told. Default 5s.
	RetryAfter time.Duration
	// MaxClients bounds how many recently rejected clients are tracked, so an
	// attacker cycling keys cannot grow memory. Default 10,000. Past it, new
	// clients are not tracked (the guard fails open) until old entries expire.
	MaxClients int
	// Clock defaults to the real clock.
	Clock Clock
}

// RetryGuard blocks retry storms at the edge. A request counts as
// a retry when it comes from a client that was rejected within the last
// Window; a client that retries more than MaxRetries times within Window is
// answered 429 ERR_RETRY_STORM_BLOCKED, before any lane is touched. Requests
// it blocks count as retries too, so a client that ignores Retry-After stays
// blocked.
type RetryGuard struct {
	cfg RetryGuardConfig

	mu        sync.Mutex
	clients   map[string]*clientRetries
	lastSweep time.Time
}

// clientRetries is one client's recent history: the last rejection and a
// ring of the last MaxRetries+1 retry times.
type clientRetries struct {
	lastRejected time.Time
	retries      []time.Time
	next         int
}

// NewRetryGuard makes a guard; see RetryGuardConfig for the defaults.
func NewRetryGuard(cfg RetryGuardConfig) *RetryGuard {
	if cfg.Key == nil {
		cfg.Key = remoteHost
	}
	if cfg.MaxRetries <= 0 {
		cfg.MaxRetries = 3
	}
	if cfg.Window <= 0 {
		cfg.Window = 10 * time.Second
	}
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = 5 * time.Second
	}
	if cfg.MaxClients <= 0 {
		cfg.MaxClients = 10_000
	}
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	return &RetryGuard{cfg: cfg, clients: make(map[string]*clientRetries)}
}

func remoteHost(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// blocked records r if it is a retry and, if the client is storming, writes
// the 429 and reports true.
func (g *RetryGuard) blocked(w http.ResponseWriter, r *http.Request) bool {
	key := g.cfg.Key(r)
	if !g.retryBlocked(key) {
		return false
	}
	secs := retryAfterSeconds(g.cfg.RetryAfter)
	WriteProblem(w, secs, Problem{
		Type:   ProblemTypeRetryStorm,
		Title:  "Too many retries",
		Status: http.StatusTooManyRequests,
		Detail: fmt.Sprintf("This client retried more than %d times within %s of a rejection. Wait %d seconds, then retry with exponential backoff and jitter.",
			g.cfg.MaxRetries, g.cfg.Window, secs),
		Code:       CodeRetryStorm,
		RetryAfter: secs,
	})
	return true
}

// retryBlocked counts a request from key and reports whether key is storming.
func (g *RetryGuard) retryBlocked(key string) bool {
	now := g.cfg.Clock.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.clients[key]
	if c == nil || now.Sub(c.lastRejected) > g.cfg.Window {
		return false // not a retry: no recent rejection
	}
	c.retries[c.next] = now
	c.next = (c.next + 1) % len(c.retries)
	// The ring holds MaxRetries+1 times; its oldest is at next. If even the
	// oldest is inside the window, the client made MaxRetries+1 retries in it.
	oldest := c.retries[c.next]
	if oldest.IsZero() || now.Sub(oldest) > g.cfg.Window {
		return false
	}
	c.lastRejected = now // a blocked request is a rejection, so storming keeps it blocked
	return true
}

// noteRejection records that r's client was rejected.
func (g *RetryGuard) noteRejection(r *http.Request) {
	g.NoteRejection(g.cfg.Key(r))
}

// NoteRejection records that the client with this key was rejected, for
// handlers that reject requests themselves. The middleware calls it for every
// lane rejection it answers.
func (g *RetryGuard) NoteRejection(key string) {
	now := g.cfg.Clock.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.clients[key]
	if c == nil {
		if len(g.clients) >= g.cfg.MaxClients && !g.sweep(now) {
			return
		}
		c = &clientRetries{retries: make([]time.Time, g.cfg.MaxRetries+1)}
		g.clients[key] = c
	}
	c.lastRejected = now
}

// sweep forgets clients with no rejection in the window and reports whether
// there is room for another. It scans at most once per tenth of a window, so
// a flood of new keys against a full table costs a map lookup, not a scan.
// Callers hold g.mu.
func (g *RetryGuard) sweep(now time.Time) bool {
	if now.Sub(g.lastSweep) < g.cfg.Window/10 {
		return false
	}
	g.lastSweep = now
	for k, c := range g.clients {
		if now.Sub(c.lastRejected) > g.cfg.Window {
			delete(g.clients, k)
		}
	}
	return len(g.clients) < g.cfg.MaxClients
}

// Wrap puts the guard in front of next on its own, for services that answer
// rejections themselves and call NoteRejection.
func (g *RetryGuard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.blocked(w, r) {
			next.ServeHTTP(w, r)
		}
	})
}
