package tenant

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"math"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
)

// Config sets the quotas every tenant of a lane gets.
type Config struct {
	// Key names the tenant of a call from its context. Default
	// bulkhead.TenantOf; a call whose key is "" is not counted against any
	// tenant.
	Key func(context.Context) string
	// MaxConcurrent is how many calls of one tenant may run in the lane at
	// once. 0 means no concurrency quota (the fair share still applies).
	MaxConcurrent int
	// Rate is the tenant's token bucket's refill, in tokens a second: each
	// call takes one, Charge takes more. 0 means no rate quota.
	Rate float64
	// Burst is the bucket's size. Default the rate rounded up, at least 1.
	Burst int
	// ContendedAt is the number of calls running in the lane (of every
	// tenant) from which the lane counts as contended and a tenant at or
	// over its fair share is refused. Default three quarters of the lane's
	// MaxConcurrent, at least 1; negative turns the fair share off.
	ContendedAt int
	// RetryAfter is what a caller refused by the concurrency quota or the
	// fair share is told to wait. Default 1s. (A rate refusal says when the
	// bucket's next token comes.)
	RetryAfter time.Duration
	// IdleAfter is how long a tenant with nothing running and a full
	// bucket is remembered. Default 1 minute.
	IdleAfter time.Duration
	// MaxTenants bounds the tenants tracked at once. Default 1<<20.
	MaxTenants int
	// Now is the time source, for tests. Default time.Now's monotonic
	// reading.
	Now func() time.Time
}

const (
	defaultRetryAfter = time.Second
	defaultIdleAfter  = time.Minute
	defaultMaxTenants = 1 << 20
)

// Lane is a lane's runner with per-tenant quotas in front of it. It is a
// [bulkhead.Runner], so the HTTP middleware serves routes through it as
// through the executor itself.
type Lane struct {
	// shards come first: a Lane, over 16 KiB, is allocated on a cache line
	// boundary, so each 64-byte shard has a line of its own.
	shards [numShards]shard

	// calls is the calls of tenants running in the lane (the low 32 bits)
	// and the tenants with calls running (the high 32): one atomic add per
	// admission and per Done keeps both, where two counters took two. Every
	// core's admissions write it, so it has its line to itself: the
	// settings each admission reads stay in every core's cache.
	calls    atomic.Int64
	_        [56]byte
	tracked  atomic.Int64
	rejected [len(bulkhead.TenantReasons)]atomic.Uint64

	lane        bulkhead.Runner
	spec        bulkhead.LaneSpec
	cfg         Config
	burst       int     // 0: no rate quota
	burstTokens float64 // burst, for the bucket's arithmetic
	contendedAt int
	perShard    int
	seed        maphash.Seed
	epoch       time.Time // the lane's clock counts nanoseconds from it
	quotaRate   string    // the Quota of a rate refusal, built once
	quotaConc   string
	code        string // ERR_<LANE>_TENANT_QUOTA_EXCEEDED
}

// activeOne is one tenant with calls running, in Lane.calls.
const activeOne = 1 << 32

// calls splits a reading of Lane.calls.
func calls(v int64) (running, active int) { return int(int32(v)), int(v >> 32) }

// New puts per-tenant quotas in front of lane (usually a
// *bulkhead.Executor). The error says what in cfg to fix.
func New(lane bulkhead.Runner, cfg Config) (*Lane, error) {
	spec := lane.Spec()
	if err := cfg.fill(spec); err != nil {
		return nil, err
	}
	l := &Lane{
		lane: lane, spec: spec, cfg: cfg, seed: maphash.MakeSeed(),
		contendedAt: cfg.ContendedAt,
		perShard:    (cfg.MaxTenants + numShards - 1) / numShards,
		quotaConc:   fmt.Sprintf("concurrency quota of %d calls at once", cfg.MaxConcurrent),
		code:        spec.TenantCode(),
	}
	l.epoch = time.Now()
	if cfg.Now != nil {
		l.epoch = cfg.Now()
	}
	if cfg.Rate > 0 {
		l.burst = cmpOr(cfg.Burst, max(1, int(math.Ceil(cfg.Rate))))
		l.burstTokens = float64(l.burst)
		l.quotaRate = fmt.Sprintf("rate quota of %g a second, burst %d", cfg.Rate, l.burst)
	}
	return l, nil
}

// MustNew is New for package-level variables: it panics on a bad cfg.
func MustNew(lane bulkhead.Runner, cfg Config) *Lane {
	l, err := New(lane, cfg)
	if err != nil {
		panic(err)
	}
	return l
}

func (c *Config) fill(spec bulkhead.LaneSpec) error {
	switch {
	case c.MaxConcurrent < 0 || c.Rate < 0 || c.Burst < 0 || c.MaxTenants < 0:
		return fmt.Errorf("tenant: lane %q: MaxConcurrent, Rate, Burst and MaxTenants must not be negative; use 0 for no quota or the default", spec.Name)
	case math.IsInf(c.Rate, 0) || math.IsNaN(c.Rate):
		return fmt.Errorf("tenant: lane %q: Rate %v is not a number of tokens a second; use 0 for no rate quota", spec.Name, c.Rate)
	case c.ContendedAt > spec.MaxConcurrent:
		return fmt.Errorf("tenant: lane %q: ContendedAt %d is above the lane's MaxConcurrent %d, so the lane would never count as contended; use 0 for the default (three quarters)", spec.Name, c.ContendedAt, spec.MaxConcurrent)
	case c.RetryAfter < 0 || c.IdleAfter < 0:
		return fmt.Errorf("tenant: lane %q: RetryAfter and IdleAfter must not be negative; use 0 for the default", spec.Name)
	}
	if c.Key == nil {
		c.Key = bulkhead.TenantOf
	}
	if c.ContendedAt == 0 {
		c.ContendedAt = max(1, spec.MaxConcurrent*3/4)
	}
	c.RetryAfter = cmpOr(c.RetryAfter, defaultRetryAfter)
	c.IdleAfter = cmpOr(c.IdleAfter, defaultIdleAfter)
	c.MaxTenants = cmpOr(c.MaxTenants, defaultMaxTenants)
	return nil
}

// now reads the lane's clock, once per admission: nanoseconds since the
// lane was made. Without Config.Now it reads only the monotonic clock
// (time.Since of a time.Now keeping its monotonic reading): time.Now reads
// the wall clock too, which costs as much again, and the buckets and the
// idle expiry only subtract times.
func (l *Lane) now() int64 {
	if l.cfg.Now != nil {
		return int64(l.cfg.Now().Sub(l.epoch))
	}
	return int64(time.Since(l.epoch))
}

func cmpOr[T comparable](v, fallback T) T {
	var zero T
	if v == zero {
		return fallback
	}
	return v
}

// Spec is the wrapped lane's spec.
func (l *Lane) Spec() bulkhead.LaneSpec { return l.spec }

// Unwrap is the lane the quotas stand in front of; the HTTP middleware
// reaches its breaker through it, so a handler's 5xx still counts.
func (l *Lane) Unwrap() bulkhead.Runner { return l.lane }

// Do runs fn in the lane once the call's tenant is within its quotas and
// the lane admits it. A refusal by a quota is a [*bulkhead.Rejection] with a
// tenant reason, and fn is not called; the lane's own rejections are
// returned as the lane returns them.
func (l *Lane) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	key := l.cfg.Key(ctx)
	if key == "" {
		return l.lane.Do(ctx, fn)
	}
	t, err := l.Admit(key)
	if err != nil {
		return err
	}
	defer t.Done()
	return l.lane.Do(ctx, fn)
}

// Handler serves next in the lane behind the tenant quotas, the tenant
// named by tenantOf; rejections are answered by bulkhead.WriteRejection (a
// quota's: 429 with Retry-After and a problem body naming the quota).
func (l *Lane) Handler(tenantOf func(*http.Request) string, next http.Handler) http.Handler {
	mw, err := bulkhead.NewMiddleware(bulkhead.MiddlewareConfig{Default: l, Tenant: tenantOf})
	if err != nil { // cannot happen: no routes to check
		panic(err)
	}
	return mw.Wrap(next)
}

// Ticket is one admitted call of a tenant. Call Done when it ends.
type Ticket struct {
	l  *Lane
	sh *shard // s's, whose lock Charge takes
	s  *state
}

// Admit counts one call of tenant key against its quotas: the concurrency
// quota, the fair share of a contended lane, then a token of its bucket.
// It does not take a slot of the lane itself (Do does both). The error is
// a *bulkhead.Rejection; on success the caller must call Ticket.Done.
func (l *Lane) Admit(key string) (Ticket, error) {
	now := l.now()
	h := maphash.String(l.seed, key)
	sh := l.shardOf(h)
	sh.mu.Lock()
	s := sh.lookup(l, h, key, now)
	s.seen = now
	lane := l.calls.Load()
	if reason, retry, ok := l.check(s, lane, now); !ok {
		s.rejected++
		share := l.share(s, lane)
		sh.mu.Unlock()
		return Ticket{}, l.reject(reason, key, retry, share)
	}
	add := int64(1)
	if s.running.Add(1) == 1 {
		add += activeOne
	}
	sh.admitted++
	sh.mu.Unlock()
	l.calls.Add(add)
	return Ticket{l: l, sh: sh, s: s}, nil
}

// check says whether s may start one more call; lane is a reading of
// l.calls. Callers hold s's shard lock.
func (l *Lane) check(s *state, lane int64, now int64) (bulkhead.Reason, time.Duration, bool) {
	n := int(s.running.Load())
	if l.cfg.MaxConcurrent > 0 && n >= l.cfg.MaxConcurrent {
		return bulkhead.ReasonTenantConcurrency, l.cfg.RetryAfter, false
	}
	if running, _ := calls(lane); l.contendedAt > 0 && running >= l.contendedAt && n >= l.share(s, lane) {
		return bulkhead.ReasonTenantShare, l.cfg.RetryAfter, false
	}
	if l.burst > 0 && !s.bucket.allow(now, l.cfg.Rate, l.burstTokens) {
		return bulkhead.ReasonTenantRate, s.bucket.untilToken(now, l.cfg.Rate, l.burstTokens), false
	}
	return 0, 0, true
}

// share is the tenant's fair share of a contended lane: ContendedAt among
// the tenants with calls running, this one included, rounded up; lane is
// a reading of l.calls.
func (l *Lane) share(s *state, lane int64) int {
	_, active := calls(lane)
	tenants := int64(active)
	if s.running.Load() == 0 {
		tenants++
	}
	tenants = max(tenants, 1)
	return int((int64(l.contendedAt) + tenants - 1) / tenants)
}

func (l *Lane) reject(reason bulkhead.Reason, key string, retry time.Duration, share int) error {
	l.rejected[tenantReasonIndex(reason)].Add(1)
	quota := l.quotaRate
	switch reason {
	case bulkhead.ReasonTenantConcurrency:
		quota = l.quotaConc
	case bulkhead.ReasonTenantShare:
		quota = fmt.Sprintf("fair share of the contended lane (%d of the %d calls it runs before refusing tenants over their share)", share, l.contendedAt)
	}
	return &bulkhead.Rejection{
		Lane:       l.spec.Name,
		Reason:     reason,
		RetryAfter: retry,
		Status:     http.StatusTooManyRequests,
		Code:       l.code,
		Tenant:     key,
		Quota:      quota,
	}
}

func tenantReasonIndex(r bulkhead.Reason) int {
	for i, tr := range bulkhead.TenantReasons {
		if tr == r {
			return i
		}
	}
	panic(errors.New("tenant: not a tenant reason: " + r.String()))
}

// Done ends the call: its tenant's slot goes back. Done on the zero
// Ticket does nothing.
func (t Ticket) Done() {
	if t.s == nil {
		return
	}
	add := int64(-1)
	if t.s.running.Add(-1) == 0 {
		add -= activeOne
	}
	t.l.calls.Add(add)
}

// Charge takes units more tokens from the tenant's bucket, for work that
// learns its cost as it runs (rows, tokens). The bucket may go below zero:
// the tenant's next calls wait until it has paid. A charge larger than the
// bucket is taken as the whole bucket.
func (t Ticket) Charge(units int) {
	if t.s != nil {
		t.sh.mu.Lock()
		t.l.charge(t.s, units)
		t.sh.mu.Unlock()
	}
}

// Charge is Ticket.Charge for the tenant of ctx, for work run through Do,
// which does not hand out its ticket. It does nothing for a tenant not
// tracked.
func (l *Lane) Charge(ctx context.Context, units int) {
	key := l.cfg.Key(ctx)
	if key == "" {
		return
	}
	h := maphash.String(l.seed, key)
	sh := l.shardOf(h)
	sh.mu.Lock()
	s := sh.tenants.get(h)
	if s != nil {
		l.charge(s, units)
	}
	sh.mu.Unlock()
}

// charge takes units from s's bucket. Callers hold s's shard lock.
func (l *Lane) charge(s *state, units int) {
	if l.burst == 0 || units <= 0 {
		return
	}
	s.bucket.take(l.now(), min(units, l.burst), l.cfg.Rate, l.burstTokens)
}

// shardOf picks the shard by the hash's top bits; the map inside uses the
// whole hash.
func (l *Lane) shardOf(h uint64) *shard {
	return &l.shards[h>>(64-shardBits)]
}
