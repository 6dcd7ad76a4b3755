package tenant

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
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

// state is one tracked tenant: 48 bytes.
type state struct {
	bucket   bucket       // under the shard lock
	seen     int64        // last admission asked for, on the lane's clock; under the shard lock
	running  atomic.Int32 // calls running; Done lowers it without the shard lock
	rejected uint32       // refusals since the tenant was tracked; under the shard lock
	key      string       // the tenant, for Top; admission never reads it
}

// shard is 64 bytes, so that the shards, first in a Lane, keep their locks
// on lines of their own.
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
	// admitted counts the shard's admissions under its lock: a lane-wide
	// atomic would be one more locked instruction per admission, on a line
	// every core writes.
	admitted uint64
}

// lookup finds or makes the state of key, whose hash is h. Callers hold sh.mu.
func (sh *shard) lookup(l *Lane, h uint64, key string, now int64) *state {
	if s := sh.tenants.get(h); s != nil {
		return s
	}
	if sh.tenants.len() >= l.perShard || now-sh.lastSweep > int64(l.cfg.IdleAfter) {
		if now-sh.lastSweep > int64(sweepEvery) {
			sh.sweep(l, now)
		}
	}
	if sh.tenants.len() >= l.perShard {
		if sh.overflow == nil {
			sh.overflow = l.newState(now)
		}
		return sh.overflow
	}
	s := l.newState(now)
	s.key = strings.Clone(key) // key may be a slice of a larger buffer
	sh.tenants.put(h, s)
	l.tracked.Add(1)
	return s
}

// sweep drops the tenants idle for IdleAfter whose buckets are full again,
// so dropping one forgives no debt. Callers hold sh.mu.
func (sh *shard) sweep(l *Lane, now int64) {
	sh.lastSweep = now
	dropped := sh.tenants.dropIf(func(s *state) bool {
		if s.running.Load() != 0 || now-s.seen < int64(l.cfg.IdleAfter) {
			return false
		}
		return l.burst == 0 || s.bucket.at(now, l.cfg.Rate, l.burstTokens) >= l.burstTokens
	})
	l.tracked.Add(-int64(dropped))
}

// newState makes a tenant with a full bucket.
func (l *Lane) newState(now int64) *state {
	s := new(state)
	s.bucket.full(now, l.burstTokens)
	return s
}

// Sweep drops every idle tenant now (see the package documentation);
// shards also sweep themselves as new tenants come.
func (l *Lane) Sweep() {
	now := l.now()
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

// Totals reads the lane's totals. It takes each shard's lock in turn (the
// admissions are counted per shard): call it at scrape intervals, not per
// request.
func (l *Lane) Totals() Totals {
	running, active := calls(l.calls.Load())
	t := Totals{
		Tracked:  int(l.tracked.Load()),
		Active:   active,
		Running:  running,
		Rejected: map[bulkhead.Reason]uint64{},
	}
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.Lock()
		t.Admitted += sh.admitted
		sh.mu.Unlock()
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
