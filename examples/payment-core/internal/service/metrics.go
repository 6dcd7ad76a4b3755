package service

import (
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
)

// Routes, named by their lane.
const (
	routeNone     = ""
	routeCardAuth = "card_auth"
	routeFraud    = "fraud"
	routeTax      = "tax"
	routeReports  = "reports"
)

var routes = []string{routeCardAuth, routeFraud, routeTax, routeReports}

func routeOf(path string) string {
	switch {
	case strings.HasPrefix(path, "/card/"):
		return routeCardAuth
	case strings.HasPrefix(path, "/fraud/"):
		return routeFraud
	case strings.HasPrefix(path, "/tax/"):
		return routeTax
	case strings.HasPrefix(path, "/merchant/"):
		return routeReports
	}
	return routeNone
}

// metrics counts, per route, the requests running now and how long each
// rejection took, in 10 µs buckets up to 50 ms (a fixed-size histogram).
type metrics struct {
	byRoute map[string]*routeMetrics
}

const (
	shedBucket  = 10 * time.Microsecond
	shedBuckets = 5000 // 50 ms; slower sheds go in the last bucket
)

type routeMetrics struct {
	active    atomic.Int64
	fallbacks atomic.Int64
	shedCount atomic.Int64
	shedMax   atomic.Int64 // ns
	shedHist  [shedBuckets]atomic.Int64
}

func newMetrics() *metrics {
	m := &metrics{byRoute: map[string]*routeMetrics{}}
	for _, r := range routes {
		m.byRoute[r] = &routeMetrics{}
	}
	return m
}

// active counts the requests that hold a slot of the route's lane (next
// runs inside the lane).
func (m *metrics) active(route string, next http.Handler) http.Handler {
	rm := m.byRoute[route]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rm.active.Add(1)
		defer rm.active.Add(-1)
		next.ServeHTTP(w, r)
	})
}

func (m *metrics) shed(route string, d time.Duration) {
	rm := m.byRoute[route]
	rm.shedCount.Add(1)
	for {
		cur := rm.shedMax.Load()
		if int64(d) <= cur || rm.shedMax.CompareAndSwap(cur, int64(d)) {
			break
		}
	}
	i := min(int(d/shedBucket), shedBuckets-1)
	rm.shedHist[i].Add(1)
}

func (m *metrics) fallback(route string) { m.byRoute[route].fallbacks.Add(1) }

// quantile is the upper edge of the bucket holding the q-quantile of the
// shed times.
func (rm *routeMetrics) quantile(q float64) time.Duration {
	n := rm.shedCount.Load()
	if n == 0 {
		return 0
	}
	want := int64(float64(n)*q + 0.5)
	want = max(want, 1)
	var seen int64
	for i := range rm.shedHist {
		seen += rm.shedHist[i].Load()
		if seen >= want {
			return time.Duration(i+1) * shedBucket
		}
	}
	return time.Duration(shedBuckets) * shedBucket
}

// Snapshot is what GET /debug/lanes answers.
type Snapshot struct {
	Mode   string                   `json:"mode"`
	At     time.Time                `json:"at"`
	Lanes  map[string]LaneSnapshot  `json:"lanes"`
	Routes map[string]RouteSnapshot `json:"routes"`
	Pools  map[string]PoolSnapshot  `json:"pools"`
	// FraudQueue is the async scoring queue (bulkhead mode).
	FraudQueue *QueueSnapshot `json:"fraud_queue,omitempty"`
	// TaxStuck and TaxStuckEnded are the injected stuck tax calls holding
	// their transaction now, and those whose session was ended (faults.go).
	TaxStuck      int64 `json:"tax_stuck,omitempty"`
	TaxStuckEnded int64 `json:"tax_stuck_ended,omitempty"`
}

// LaneSnapshot is one executor's stats.
type LaneSnapshot struct {
	Active        int    `json:"active"`
	Queued        int    `json:"queued"`
	Limit         int    `json:"limit"`
	QueueCapacity int    `json:"queue_capacity"`
	State         string `json:"state"`
	Breaker       string `json:"breaker,omitempty"`
	Stuck         int    `json:"stuck,omitempty"`
	Lagging       bool   `json:"lagging,omitempty"`
	// LagAlerts is how many ALERT_BULKHEAD_RECOVERY_LAG the lane reported,
	// LastLagAlert when the last one was.
	LagAlerts    int       `json:"lag_alerts,omitempty"`
	LastLagAlert time.Time `json:"last_lag_alert,omitzero"`
}

// RouteSnapshot is one route: requests running inside their lane now, and
// the server-side time of its rejections (arrival to response written).
type RouteSnapshot struct {
	Active    int64 `json:"active"`
	Fallbacks int64 `json:"fallbacks"`
	Shed      int64 `json:"shed"`
	ShedP50us int64 `json:"shed_p50_us"`
	ShedP99us int64 `json:"shed_p99_us"`
	ShedMaxus int64 `json:"shed_max_us"`
}

// PoolSnapshot is one PostgreSQL pool: connections open (Total), held by
// requests (Acquired) and idle. For a lane's lanepgx pool it adds the
// lanepool statistics: callers waiting now, and since the pool opened the
// successful acquires, the acquires turned away (timeouts among them),
// connections held past the leak threshold, uses from another lane's work
// and the total time acquires waited.
type PoolSnapshot struct {
	Max      int32 `json:"max"`
	Total    int32 `json:"total"`
	Acquired int32 `json:"acquired"`
	Idle     int32 `json:"idle"`

	Waiting     int    `json:"waiting,omitempty"`
	MaxWaiters  int    `json:"max_waiters,omitempty"`
	Acquires    uint64 `json:"acquires,omitempty"`
	Timeouts    uint64 `json:"acquire_timeouts,omitempty"`
	Failed      uint64 `json:"acquire_failures,omitempty"`
	Leaks       uint64 `json:"leaks,omitempty"`
	CrossLane   uint64 `json:"cross_lane,omitempty"`
	WaitTotalUS int64  `json:"acquire_wait_total_us,omitempty"`
}

// QueueSnapshot is the async fraud scoring queue: places used and its
// capacity; scores accepted (pending_fraud answers), scored, failed
// attempts (each retried) and dropped at shutdown; whether the workers may
// call the fraud service now (the lane's breaker is closed).
type QueueSnapshot struct {
	Len     int   `json:"len"`
	Cap     int   `json:"cap"`
	Queued  int64 `json:"queued"`
	Scored  int64 `json:"scored"`
	Failed  int64 `json:"failed"`
	Dropped int64 `json:"dropped"`
	Ready   bool  `json:"ready"`
}

// Snapshot reads the service's state.
func (s *Server) Snapshot() Snapshot {
	snap := Snapshot{Mode: s.mode, At: time.Now(), Lanes: map[string]LaneSnapshot{}, Routes: map[string]RouteSnapshot{}, Pools: map[string]PoolSnapshot{}}
	for _, l := range s.lanes {
		src, ok := l.(bulkhead.StatsSource)
		if !ok {
			continue
		}
		st := src.Stats()
		snap.Lanes[st.Lane] = LaneSnapshot{Active: st.Active, Queued: st.Queued, Limit: st.Limit, QueueCapacity: st.QueueCapacity, State: st.State.String(),
			Stuck: st.Stuck, Lagging: st.Lagging}
		if n, at := s.lagAlerts.get(st.Lane); n > 0 {
			ls := snap.Lanes[st.Lane]
			ls.LagAlerts, ls.LastLagAlert = n, at
			snap.Lanes[st.Lane] = ls
		}
		if l == s.fraudLane && s.fraudBreaker != nil {
			ls := snap.Lanes[st.Lane]
			ls.Breaker = st.Breaker.String()
			snap.Lanes[st.Lane] = ls
		}
	}
	for name, rm := range s.metrics.byRoute {
		snap.Routes[name] = RouteSnapshot{
			Active: rm.active.Load(), Fallbacks: rm.fallbacks.Load(), Shed: rm.shedCount.Load(),
			ShedP50us: rm.quantile(0.50).Microseconds(), ShedP99us: rm.quantile(0.99).Microseconds(),
			ShedMaxus: time.Duration(rm.shedMax.Load()).Microseconds(),
		}
	}
	if s.sharedDB != nil {
		st := s.sharedDB.Stat()
		snap.Pools["shared"] = PoolSnapshot{Max: st.MaxConns(), Total: st.TotalConns(), Acquired: st.AcquiredConns(), Idle: st.IdleConns()}
	}
	for name, p := range s.lanePools {
		ls, st := p.PoolStats(), p.Pgx().Stat()
		snap.Pools[name] = PoolSnapshot{
			Max: int32(ls.Budget), Total: st.TotalConns(), Acquired: int32(ls.InUse), Idle: int32(ls.Idle),
			Waiting: ls.Waiting, MaxWaiters: ls.MaxWaiters, Acquires: ls.Acquired, Timeouts: ls.Timeouts, Failed: ls.Failed,
			Leaks: ls.Leaks, CrossLane: ls.CrossLane, WaitTotalUS: ls.WaitTotal.Microseconds(),
		}
	}
	snap.TaxStuck, snap.TaxStuckEnded = s.faults.stuck.Load(), s.faults.ended.Load()
	if s.fraudQ != nil {
		q := s.fraudQ.snapshot()
		snap.FraudQueue = &q
	}
	return snap
}

func (s *Server) debugLanes(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.Snapshot())
}
