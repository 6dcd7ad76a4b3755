package tenant

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"golang.org/x/time/rate"
)

// numShards splits the tenants so that admissions of different tenants
// rarely wait on one lock, and a shard's sweep holds up 1/256 of them.
const (
	shardBits = 8
	numShards = 1 << shardBits
)

// sweepEvery bounds how often a full shard looks for idle tenants to drop,
// so a shard full of busy tenants is not scanned on every new key.
const sweepEvery = 100 * time.Millisecond

// state is one tracked tenant: 112 bytes (the bucket is 80).
type state struct {
	bucket   rate.Limiter
	running  atomic.Int32 // calls running; Done lowers it without the shard lock
	rejected uint32       // refusals since the tenant was tracked; under the shard lock
	seen     int64        // last admission asked for, Unix ns; under the shard lock
	key      string       // the tenant, for Top; admission never reads it
}

type shard struct {
	mu sync.Mutex
	// tenants are keyed by the 64-bit hash of their key, so a lookup
	// compares hashes in the table's slots instead of following each key's
	// pointer, a cache miss per admission at 10^5 tenants. Two tenants
	// whose keys hash alike (about 1 in 10^7 at 10^6 tenants) would share
	// their quotas.
	tenants   table
	overflow  *state // shared by new tenants while the shard is full
	lastSweep int64
	_         [24]byte // keeps two shards' locks off one cache line
}

// lookup finds or makes the state of key, whose hash is h. Callers hold sh.mu.
func (sh *shard) lookup(l *Lane, h uint64, key string, now time.Time) *state {
	if s := sh.tenants.get(h); s != nil {
		return s
	}
	ns := now.UnixNano()
	if sh.tenants.len() >= l.perShard || ns-sh.lastSweep > int64(l.cfg.IdleAfter) {
		if ns-sh.lastSweep > int64(sweepEvery) {
			sh.sweep(l, now)
		}
	}
	if sh.tenants.len() >= l.perShard {
		if sh.overflow == nil {
			sh.overflow = l.newState()
		}
		return sh.overflow
	}
	s := l.newState()
	s.key = strings.Clone(key) // key may be a slice of a larger buffer
	sh.tenants.put(h, s)
	l.tracked.Add(1)
	return s
}

// sweep drops the tenants idle for IdleAfter whose buckets are full again,
// so dropping one forgives no debt. Callers hold sh.mu.
func (sh *shard) sweep(l *Lane, now time.Time) {
	ns := now.UnixNano()
	sh.lastSweep = ns
	dropped := sh.tenants.dropIf(func(s *state) bool {
		if s.running.Load() != 0 || ns-s.seen < int64(l.cfg.IdleAfter) {
			return false
		}
		return l.burst == 0 || s.bucket.TokensAt(now) >= float64(l.burst)
	})
	l.tracked.Add(-int64(dropped))
}

// newState makes a tenant with a full bucket: a Limiter whose last update
// is the zero time fills to its burst on first use.
func (l *Lane) newState() *state {
	s := new(state)
	if l.burst > 0 {
		s.bucket.SetBurstAt(time.Time{}, l.burst)
		s.bucket.SetLimitAt(time.Time{}, rate.Limit(l.cfg.Rate))
	}
	return s
}

// Sweep drops every idle tenant now (see the package documentation);
// shards also sweep themselves as new tenants come.
func (l *Lane) Sweep() {
	now := l.cfg.Now()
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		sh.sweep(l, now)
		sh.mu.Unlock()
	}
}

// Totals is a snapshot of a lane's tenants, for metrics.
type Totals struct {
	Tracked  int    // tenants remembered now
	Active   int    // tenants with calls running
	Running  int    // calls of tenants running (admitted by the quotas)
	Admitted uint64 // calls admitted by the quotas since the lane was made
	// Rejected counts refusals by reason (bulkhead.ReasonTenantConcurrency,
	// ReasonTenantRate, ReasonTenantShare).
	Rejected map[bulkhead.Reason]uint64
}

// Totals reads the lane's totals.
func (l *Lane) Totals() Totals {
	t := Totals{
		Tracked:  int(l.tracked.Load()),
		Active:   int(l.active.Load()),
		Running:  int(l.running.Load()),
		Admitted: l.admitted.Load(),
		Rejected: map[bulkhead.Reason]uint64{},
	}
	for i, r := range bulkhead.TenantReasons {
		t.Rejected[r] = l.rejected[i].Load()
	}
	return t
}

// Offender is one tenant of [Lane.Top].
type Offender struct {
	Tenant   string
	Rejected uint32 // refusals since the tenant was tracked
	Running  int    // calls running now
}

// Top is the n tenants refused most since they were tracked, then running
// the most calls; tenants never refused and running nothing are left out.
// It reads every shard, one at a time: call it at scrape intervals, not
// per request.
func (l *Lane) Top(n int) []Offender {
	if n <= 0 {
		return nil
	}
	top := make([]Offender, 0, n+1)
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		sh.tenants.each(func(s *state) {
			o := Offender{Tenant: s.key, Rejected: s.rejected, Running: int(s.running.Load())}
			if o.Rejected == 0 && o.Running == 0 || len(top) == n && !worse(o, top[n-1]) {
				return
			}
			at, _ := slices.BinarySearchFunc(top, o, byOffence)
			top = slices.Insert(top, at, o)
			if len(top) > n {
				top = top[:n]
			}
		})
		sh.mu.Unlock()
	}
	return top
}

func worse(a, b Offender) bool { return byOffence(a, b) < 0 }

// byOffence orders the most refused first, then the most running, then by name.
func byOffence(a, b Offender) int {
	if c := cmp.Compare(b.Rejected, a.Rejected); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Running, a.Running); c != 0 {
		return c
	}
	return strings.Compare(a.Tenant, b.Tenant)
}
