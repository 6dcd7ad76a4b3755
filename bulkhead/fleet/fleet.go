// Package fleet is a lane's concurrency limit shared by every process of a
// fleet, kept in Redis: for dependencies whose limit is global, such as a
// payment provider that accepts 200 concurrent calls from the whole service.
// Per-process limits multiply with the fleet: 12 per pod is 720 at 60 pods.
//
//	payments, err := fleet.New[Payments](rdb, fleet.Config{
//		Limit:      200, // the provider's limit, for the whole fleet
//		LocalLimit: 4,   // this pod's share if Redis is unreachable
//	})
//
//	lease, err := payments.Acquire(ctx) // *fleet.Lease
//	if err != nil { ... }               // a *fleet.LimitError: shed the request
//	defer lease.Release()
//
// Each holder has a lease: a member of a Redis sorted set scored by its
// expiry. A holder renews its leases every LeaseTTL/3; a holder that dies
// stops renewing, and its leases are reclaimed once they expire, by the next
// Acquire anywhere in the fleet. Redis's own clock (TIME) sets the expiries,
// so the processes' clocks need not agree. A holder cut off from Redis
// declares a lease lost (Lease.Lost, and Do cancels its work) once LeaseTTL
// has passed since the last renewal that succeeded was sent: Redis cannot
// have let the lease go before that.
//
// Every Redis call is bounded by RedisTimeout by the limiter itself, not by
// the client's options: a call that overruns is abandoned.
//
// When Redis is unreachable the limiter does what Config.Partition says:
// fall back to LocalLimit in this process (the default; the limit is then
// soft), fail closed, or run this instance's fair share of the limit,
// which holds the limit across the fleet (see Partition). It counts the
// Redis leases it still holds against the fallback limit, and says so: the
// OnFallback callback, a warning on the logger, Stats.Fallback, and
// Lease.Local on the leases it hands out. It goes back to Redis once Redis
// answers again (checked at most every RetryRedisEvery), and the local
// leases still held count against the fleet limit until given back.
package fleet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/redis/go-redis/v9"
)

// Config configures a Limiter.
type Config struct {
	// Key is the Redis key of the limit. Default "bhlint:fleet:<lane>".
	// Every process that shares the limit must use the same key.
	Key string
	// Limit is the fleet-wide number of leases. Required.
	Limit int
	// Partition is what the limiter does while Redis is unreachable:
	// PartitionLocal (the default), PartitionFailClosed or
	// PartitionFairShare.
	Partition Partition
	// LocalLimit is this process's limit while Redis is unreachable, with
	// PartitionLocal: the fleet limit divided by the number of processes,
	// rounded down. Required with PartitionLocal, unused otherwise.
	LocalLimit int
	// ForgetAfter is how long, with PartitionFairShare, Redis keeps the
	// share of an instance it has not heard from, and so how long that
	// instance may run its share cut off from Redis. Default 10×LeaseTTL;
	// at least 3×LeaseTTL.
	ForgetAfter time.Duration
	// LeaseTTL is how long a lease lives without renewal: the time a dead
	// holder's lease stays taken, and the time after which a holder that
	// could not renew it declares it lost. Default 5s.
	LeaseTTL time.Duration
	// RenewEvery is how often held leases are renewed. Default LeaseTTL/3.
	RenewEvery time.Duration
	// AcquireTimeout is how long Acquire waits for a lease when the limit is
	// reached. 0 means fail at once.
	AcquireTimeout time.Duration
	// MaxWaiters bounds the callers in this process waiting for a lease.
	// Default 0 (no one waits); required to be positive with AcquireTimeout.
	MaxWaiters int
	// PollEvery is how often a waiting caller asks Redis again, jittered
	// ±50%. Default 20ms.
	PollEvery time.Duration
	// RedisTimeout bounds every Redis call, whatever the client's own
	// timeouts: a call that overruns is abandoned (it ends in the
	// background, within the client's timeouts; an acquire granted late is
	// given back). 0 (the default) adapts it to Redis's observed latency:
	// twice the smoothed latency plus four times its deviation, at least
	// MinRedisTimeout (100ms) and at most LeaseTTL/4, and FirstRedisTimeout
	// (1s, at most LeaseTTL/4) until Redis first answers, so that a Redis
	// slowed down by CPU load is waited for rather than taken for
	// unreachable.
	RedisTimeout time.Duration
	// RetryRedisEvery is how often a limiter that fell back tries Redis
	// again. Default 1s.
	RetryRedisEvery time.Duration
	// RetryAfter is what a caller that got no lease is told. Default the
	// lane's RetryAfter.
	RetryAfter time.Duration
	// OnFallback is called (in its own goroutine) when the limiter falls
	// back to LocalLimit (err is why) and when it is back on Redis (err nil).
	OnFallback func(err error)
	// Logger receives the same transitions and lost leases. Default slog.Default().
	Logger *slog.Logger
}

// Limiter is lane L's fleet-wide limit.
type Limiter[L bulkhead.Lane] struct {
	rdb  redis.UniversalClient
	cfg  Config
	lane string
	key  string

	waiters atomic.Int64
	calls   atomic.Int64 // Redis calls in flight, abandoned ones included

	mu         sync.Mutex
	held       map[string]*Lease // Redis leases being renewed
	redisHeld  int               // Redis leases not yet released, lost ones included
	localHeld  int               // leases from the local fallback limit
	renewing   bool
	wake       chan struct{}
	paused     bool // tests: a holder that stopped renewing (a dead process)
	fallback   bool
	probing    bool // a caller is asking Redis whether it is back
	lastFailed time.Time
	// lastAnswer is when the last Redis call that answered was sent,
	// lastHeard when its answer came, and share this instance's fair share
	// as Redis last allocated it (PartitionFairShare): Redis recorded the
	// heartbeat between the two.
	lastAnswer, lastHeard time.Time
	share                 int
	// lastFairSent is when the last fair-share call was sent, and
	// redisOffset Redis's clock less ours, as the last answer showed.
	lastFairSent time.Time
	redisOffset  time.Duration
	seq          uint64
	prefix       string

	// latency adapts the Redis timeout when Config.RedisTimeout is 0.
	latency *redisLatency

	acquired, rejected, fallbacks, lost, localAcquired atomic.Uint64
}

// New makes lane L's limiter on rdb. It does not touch Redis until used.
func New[L bulkhead.Lane](rdb redis.UniversalClient, cfg Config) (*Limiter[L], error) {
	spec, err := bulkhead.SpecOf[L]()
	if err != nil {
		return nil, err
	}
	what := "fleet.Limiter[" + typeName[L]() + "]"
	switch {
	case rdb == nil:
		return nil, fmt.Errorf("%s: no Redis client", what)
	case cfg.Limit < 1:
		return nil, fmt.Errorf("%s: Limit is %d; set the fleet-wide limit (the dependency's own, such as a provider's 200)", what, cfg.Limit)
	case cfg.Partition > PartitionFairShare:
		return nil, fmt.Errorf("%s: unknown Partition %d", what, cfg.Partition)
	case cfg.Partition == PartitionLocal && (cfg.LocalLimit < 1 || cfg.LocalLimit > cfg.Limit):
		return nil, fmt.Errorf("%s: LocalLimit is %d; set this process's share of Limit %d for when Redis is unreachable (Limit divided by the number of processes), or choose Partition: PartitionFailClosed or PartitionFairShare", what, cfg.LocalLimit, cfg.Limit)
	case cfg.AcquireTimeout < 0 || cfg.MaxWaiters < 0:
		return nil, fmt.Errorf("%s: negative AcquireTimeout or MaxWaiters", what)
	case cfg.AcquireTimeout > 0 && cfg.MaxWaiters == 0:
		return nil, fmt.Errorf("%s: AcquireTimeout is set but MaxWaiters is 0; set how many callers may wait", what)
	case cfg.MaxWaiters > 0 && cfg.AcquireTimeout == 0:
		return nil, fmt.Errorf("%s: MaxWaiters is %d but AcquireTimeout is 0; a wait without a timeout never ends", what, cfg.MaxWaiters)
	}
	if cfg.Key == "" {
		cfg.Key = "bhlint:fleet:" + spec.Name
	}
	if cfg.LeaseTTL <= 0 {
		cfg.LeaseTTL = 5 * time.Second
	}
	if cfg.ForgetAfter < 3*cfg.LeaseTTL {
		cfg.ForgetAfter = DefaultForgetAfter * cfg.LeaseTTL
	}
	if cfg.RenewEvery <= 0 || cfg.RenewEvery >= cfg.LeaseTTL {
		cfg.RenewEvery = cfg.LeaseTTL / 3
	}
	if cfg.PollEvery <= 0 {
		cfg.PollEvery = 20 * time.Millisecond
	}
	if cfg.RetryRedisEvery <= 0 {
		cfg.RetryRedisEvery = time.Second
	}
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = spec.RetryAfter
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	l := &Limiter[L]{
		rdb: rdb, cfg: cfg, lane: spec.Name, key: cfg.Key,
		held:   map[string]*Lease{},
		wake:   make(chan struct{}, 1),
		prefix: strconv.FormatUint(rand.Uint64(), 36) + ":",
	}
	if cfg.RedisTimeout <= 0 {
		l.latency = newRedisLatency(max(MinRedisTimeout, cfg.LeaseTTL/4))
	}
	return l, nil
}

func typeName[L any]() string {
	t := reflect.TypeFor[L]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

// Lease is one unit of the limit, held until Release.
type Lease struct {
	id      string
	release func()
	local   bool
	lost    chan struct{}
	done    atomic.Bool

	// renewedAt is when the last acquire or renewal that succeeded was
	// sent: Redis set the lease's expiry at least LeaseTTL after it.
	// Guarded by the limiter's mu.
	renewedAt time.Time

	mu     sync.Mutex
	isLost bool
	onLost []func()
}

// Release gives the lease back. Later calls do nothing.
func (l *Lease) Release() {
	if l.done.CompareAndSwap(false, true) {
		l.release()
	}
}

// Local reports whether the lease came from the local fallback limit
// because Redis was unreachable.
func (l *Lease) Local() bool { return l.local }

// Lost is closed once the lease may have expired in Redis before it was
// released: its renewals failed for LeaseTTL (Redis unreachable, or too
// slow to answer), or Redis said it had expired. It closes while a
// partition lasts, no later than the lease can expire in Redis, so the
// fleet may now count one holder less than there is: the holder should stop
// the work if it can (Do cancels its work's context).
func (l *Lease) Lost() <-chan struct{} { return l.lost }

func (l *Lease) markLost() {
	l.mu.Lock()
	if l.isLost {
		l.mu.Unlock()
		return
	}
	l.isLost = true
	fns := l.onLost
	l.mu.Unlock()
	close(l.lost)
	for _, f := range fns {
		f()
	}
}

// whenLost calls f when the lease is lost, at once if it is already.
func (l *Lease) whenLost(f func()) {
	l.mu.Lock()
	if !l.isLost {
		l.onLost = append(l.onLost, f)
		l.mu.Unlock()
		return
	}
	l.mu.Unlock()
	f()
}

// LimitError is the error of an Acquire that got no lease.
type LimitError struct {
	Lane  string
	Key   string
	Limit int
	Local bool // the local fallback limit was full, not the fleet's
	// Unreachable: Redis is unreachable and the partition mode gives no
	// lease without it now (PartitionFailClosed, or PartitionFairShare
	// outside its window).
	Unreachable bool
	Partition   Partition
	Waited      time.Duration
	// RetryAfter is how long the caller should wait before trying again.
	RetryAfter time.Duration
	// Err is the caller's context error when it ended the wait.
	Err error
}

func (e *LimitError) Error() string {
	where := fmt.Sprintf("the fleet-wide limit of %d (Redis key %s)", e.Limit, e.Key)
	if e.Local {
		where = fmt.Sprintf("the local fallback limit of %d (Redis is unreachable)", e.Limit)
	}
	s := fmt.Sprintf("bulkhead: lane %q got no lease: %s is reached", e.Lane, where)
	if e.Unreachable {
		s = fmt.Sprintf("bulkhead: lane %q got no lease: Redis is unreachable, and with Partition %s no lease is given without it now (fleet limit %d, Redis key %s)", e.Lane, e.Partition, e.Limit, e.Key)
	}
	if e.Waited > 0 {
		s += fmt.Sprintf(" and stayed so for %s", e.Waited.Round(time.Millisecond))
	}
	if e.Err != nil {
		s += fmt.Sprintf(" (%v)", e.Err)
	}
	return s + fmt.Sprintf("; retry after %s", e.RetryAfter)
}

// Is makes errors.Is(err, bulkhead.ErrRejected) true.
func (e *LimitError) Is(target error) bool { return target == bulkhead.ErrRejected }

// Unwrap returns the caller's context error, if that ended the wait.
func (e *LimitError) Unwrap() error { return e.Err }

var (
	acquireScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) + tonumber(ARGV[4]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ttl * 2)
  return 1
end
return 0`)
	renewScript = redis.NewScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
local lost = {}
for i = 2, #ARGV do
  local s = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if s and tonumber(s) > now then
    redis.call('ZADD', KEYS[1], 'XX', now + ttl, ARGV[i])
  else
    redis.call('ZREM', KEYS[1], ARGV[i])
    table.insert(lost, ARGV[i])
  end
end
redis.call('PEXPIRE', KEYS[1], ttl * 2)
return lost`)
)

// Acquire takes a lease, waiting at most AcquireTimeout (and never past
// ctx's deadline) if the limit is reached. The caller must Release it. The
// error is a *LimitError, or ctx's error if it ended before anything happened.
func (l *Limiter[L]) Acquire(ctx context.Context) (*Lease, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	start := time.Now()
	var deadline time.Time
	waiting := false
	defer func() {
		if waiting {
			l.waiters.Add(-1)
		}
	}()
	for {
		lease, ok, local := l.try(ctx)
		if ok {
			l.acquired.Add(1)
			return lease, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, l.reject(local, time.Since(start), err)
		}
		if !waiting {
			if l.cfg.AcquireTimeout == 0 {
				return nil, l.reject(local, 0, nil)
			}
			if l.waiters.Add(1) > int64(l.cfg.MaxWaiters) {
				l.waiters.Add(-1)
				return nil, l.reject(local, 0, nil)
			}
			waiting = true
			deadline = start.Add(l.cfg.AcquireTimeout)
		}
		pause := l.cfg.PollEvery/2 + rand.N(l.cfg.PollEvery)
		if rest := time.Until(deadline); rest <= 0 {
			return nil, l.reject(local, time.Since(start), nil)
		} else if pause > rest {
			pause = rest
		}
		timer := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, l.reject(local, time.Since(start), ctx.Err())
		case <-timer.C:
		}
	}
}

// noFallback is try's local for a refusal by Redis itself.
const noFallback = -1

// reject builds the error of an Acquire that got no lease: local is the
// fallback limit that said no, or noFallback.
func (l *Limiter[L]) reject(local int, waited time.Duration, cause error) error {
	l.rejected.Add(1)
	e := &LimitError{Lane: l.lane, Key: l.key, Limit: l.cfg.Limit, Partition: l.cfg.Partition, Waited: waited, RetryAfter: l.cfg.RetryAfter, Err: cause}
	switch {
	case local == 0:
		e.Unreachable = true
	case local > 0:
		e.Local, e.Limit = true, local
	}
	return e
}

// try takes a lease from Redis, or from the fallback limit while Redis is
// unreachable. local is the fallback limit that said no, or noFallback
// when Redis did.
func (l *Limiter[L]) try(ctx context.Context) (lease *Lease, ok bool, local int) {
	l.mu.Lock()
	// While Redis is unreachable one caller at a time asks whether it is
	// back; the others do not wait RedisTimeout for the same answer.
	probe := l.fallback && !l.probing && time.Since(l.lastFailed) >= l.cfg.RetryRedisEvery
	l.probing = l.probing || probe
	useRedis := !l.fallback || probe
	l.seq++
	id := l.prefix + strconv.FormatUint(l.seq, 36)
	// Leases taken from the local limit while Redis was unreachable are
	// work in flight that Redis does not list: they count against the
	// fleet limit until they are given back.
	localHeld := l.localHeld
	fairShare := l.cfg.Partition == PartitionFairShare
	l.mu.Unlock()
	if useRedis && probe && fairShare {
		// A probe that ran the fair-share script late would record a
		// heartbeat while this instance runs its share: ask with PING.
		if useRedis = l.ping(ctx); !useRedis {
			l.mu.Lock()
			l.probing = false
			l.mu.Unlock()
			if ctx.Err() != nil {
				return nil, false, noFallback
			}
		}
	}
	var fair []any
	if useRedis && fairShare {
		l.mu.Lock()
		fair = append(l.fairArgs(), id)
		l.mu.Unlock()
	}
	if useRedis {
		sent := time.Now()
		// One variable for the answers, so the closures move one to the heap.
		var got struct {
			granted, share int
			redisNow       int64
		}
		err := l.call(ctx, func(ctx context.Context) (err error) {
			if fair == nil {
				got.granted, err = acquireScript.Run(ctx, l.rdb, []string{l.key}, l.cfg.Limit, l.cfg.LeaseTTL.Milliseconds(), id, localHeld).Int()
				return err
			}
			var answer []int64
			answer, err = fairAcquireScript.Run(ctx, l.rdb, l.fairKeys(), fair...).Int64Slice()
			if err == nil && answer[0] < 0 {
				return errStale
			}
			if err == nil {
				got.granted, got.share, got.redisNow = int(answer[0]), int(answer[1]), answer[2]
			}
			return err
		}, func(err error) {
			if err == nil && got.granted == 1 { // granted after the caller gave up: give it back
				l.zrem(id)
			}
		})
		if probe {
			l.mu.Lock()
			l.probing = false
			l.mu.Unlock()
		}
		if fair != nil && err == nil {
			l.heard(sent, got.share, got.redisNow)
		}
		if err == nil {
			l.redisOK()
			if got.granted != 1 {
				return nil, false, noFallback
			}
			lease := &Lease{id: id, lost: make(chan struct{}), renewedAt: sent}
			lease.release = func() { l.releaseRedis(lease) }
			l.hold(lease)
			return lease, true, noFallback
		}
		if ctx.Err() != nil {
			return nil, false, noFallback
		}
		l.redisFailed(err)
	}
	// The Redis leases this process still holds count against its fallback
	// limit: they are work in flight, whether Redis still lists them or not.
	l.mu.Lock()
	limit := l.partitionLimit(time.Now())
	if l.redisHeld+l.localHeld >= limit {
		l.mu.Unlock()
		return nil, false, limit
	}
	l.localHeld++
	l.mu.Unlock()
	l.localAcquired.Add(1)
	return &Lease{id: id, local: true, lost: make(chan struct{}), release: l.releaseLocal}, true, limit
}

func (l *Limiter[L]) releaseLocal() {
	l.mu.Lock()
	l.localHeld--
	l.mu.Unlock()
}

// errNoAnswer is the error of a Redis call that did not answer in time.
var errNoAnswer = errors.New("no answer from Redis within RedisTimeout")

// call runs f, a Redis call, and waits for it at most RedisTimeout. f's
// context has that deadline, but a client need not apply it to its socket
// (go-redis does so only with ContextTimeoutEnabled; otherwise it waits its
// own read timeout, 3s by default), so the wait is bounded here: a call that
// overruns is abandoned, and finishes in the background within the client's
// own timeouts; late, if not nil, then gets its error.
func (l *Limiter[L]) call(ctx context.Context, f func(context.Context) error, late func(error)) error {
	timeout := l.redisTimeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	done := make(chan error, 1)
	var state atomic.Int32 // 0 running, 1 answered, 2 abandoned
	l.calls.Add(1)
	go func() {
		defer l.calls.Add(-1)
		defer cancel() // not before the answer is claimed, or it would read as abandoned
		sent := time.Now()
		err := f(ctx)
		if l.latency != nil && err == nil {
			l.latency.observe(time.Since(sent))
		}
		if state.CompareAndSwap(0, 1) {
			done <- err
		} else if late != nil {
			late(err)
		}
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		if state.CompareAndSwap(0, 2) {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("%w (%s)", errNoAnswer, timeout)
			}
			return ctx.Err()
		}
		return <-done // it answered just now
	}
}

// ping asks Redis whether it answers, and records the answer.
func (l *Limiter[L]) ping(ctx context.Context) bool {
	err := l.call(ctx, func(ctx context.Context) error { return l.rdb.Ping(ctx).Err() }, nil)
	if err != nil {
		if ctx.Err() == nil {
			l.redisFailed(err)
		}
		return false
	}
	l.redisOK()
	return true
}

// redisTimeout is Config.RedisTimeout, or the adaptive one.
func (l *Limiter[L]) redisTimeout() time.Duration {
	if l.latency != nil {
		return l.latency.current()
	}
	return l.cfg.RedisTimeout
}

// zrem removes a lease from Redis, from a goroutine of an abandoned call.
func (l *Limiter[L]) zrem(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), l.redisTimeout())
	defer cancel()
	_ = l.rdb.ZRem(ctx, l.key, id).Err() // if this fails too, it expires by itself
}

// redisOK records that Redis answered: the limiter is back on it.
func (l *Limiter[L]) redisOK() {
	l.mu.Lock()
	was := l.fallback
	l.fallback = false
	l.mu.Unlock()
	if was {
		l.cfg.Logger.Info("bulkhead: fleet limit is back on Redis", "lane", l.lane, "key", l.key, "limit", l.cfg.Limit)
		if l.cfg.OnFallback != nil {
			go l.cfg.OnFallback(nil)
		}
	}
}

func (l *Limiter[L]) redisFailed(err error) {
	l.mu.Lock()
	was := l.fallback
	l.fallback = true
	l.lastFailed = time.Now()
	l.mu.Unlock()
	if !was {
		l.fallbacks.Add(1)
		l.cfg.Logger.Warn("bulkhead: Redis is unreachable; the fleet limit "+l.cfg.Partition.fallback(),
			"lane", l.lane, "key", l.key, "fleet_limit", l.cfg.Limit, "partition", l.cfg.Partition.String(), "local_limit", l.cfg.LocalLimit, "error", err)
		if l.cfg.OnFallback != nil {
			go l.cfg.OnFallback(err)
		}
	}
}

func (l *Limiter[L]) hold(lease *Lease) {
	l.mu.Lock()
	l.held[lease.id] = lease
	l.redisHeld++
	start := !l.renewing
	l.renewing = true
	l.mu.Unlock()
	if start {
		go l.renewLoop()
	}
}

func (l *Limiter[L]) releaseRedis(lease *Lease) {
	l.mu.Lock()
	delete(l.held, lease.id)
	l.redisHeld--
	empty := len(l.held) == 0
	l.mu.Unlock()
	if empty {
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
	err := l.call(context.Background(), func(ctx context.Context) error { return l.rdb.ZRem(ctx, l.key, lease.id).Err() }, nil)
	if err != nil {
		// The lease expires on its own within LeaseTTL.
		l.cfg.Logger.Warn("bulkhead: could not release a fleet lease; it expires by itself", "lane", l.lane, "key", l.key, "ttl", l.cfg.LeaseTTL, "error", err)
	}
}

// renewLoop renews every held Redis lease every RenewEvery, declares lost
// each lease not renewed for LeaseTTL (waking up for that at the time),
// and ends when none is held. A release of the last lease wakes it so it
// ends at once.
func (l *Limiter[L]) renewLoop() {
	timer := time.NewTimer(l.cfg.RenewEvery)
	defer timer.Stop()
	nextRenewal := time.Now().Add(l.cfg.RenewEvery)
	for {
		select {
		case <-timer.C:
		case <-l.wake:
		}
		l.mu.Lock()
		if l.paused { // tests: a frozen process does nothing at all
			l.mu.Unlock()
			timer.Reset(l.cfg.RenewEvery / 4)
			continue
		}
		now := time.Now()
		lost := l.expire(now)
		if len(l.held) == 0 {
			l.renewing = false
			l.mu.Unlock()
			l.reportLost(lost, "its renewals failed for LeaseTTL")
			return
		}
		var ids []string
		if !now.Before(nextRenewal) {
			ids = make([]string, 0, len(l.held))
			for id := range l.held {
				ids = append(ids, id)
			}
			nextRenewal = now.Add(l.cfg.RenewEvery)
		}
		l.mu.Unlock()
		l.reportLost(lost, "its renewals failed for LeaseTTL")
		if ids != nil {
			// A renewal that has not answered by the time a lease may expire
			// is too late for it: give up then and declare it lost.
			ctx, cancel := context.WithDeadline(context.Background(), l.nextWake(now.Add(l.cfg.LeaseTTL)))
			l.renew(ctx, now, ids)
			cancel()
		}
		timer.Reset(time.Until(l.nextWake(nextRenewal)))
	}
}

// expire takes off the held leases every lease not renewed for LeaseTTL:
// Redis may have let it go by now. Callers hold l.mu.
func (l *Limiter[L]) expire(now time.Time) []*Lease {
	var lost []*Lease
	for id, lease := range l.held {
		if now.Sub(lease.renewedAt) >= l.cfg.LeaseTTL {
			delete(l.held, id)
			lost = append(lost, lease)
		}
	}
	return lost
}

// nextWake is the earlier of the next renewal and the first time a held
// lease may expire.
func (l *Limiter[L]) nextWake(nextRenewal time.Time) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	at := nextRenewal
	for _, lease := range l.held {
		if exp := lease.renewedAt.Add(l.cfg.LeaseTTL); exp.Before(at) {
			at = exp
		}
	}
	return at
}

// renew extends the leases ids, sent at sent.
func (l *Limiter[L]) renew(ctx context.Context, sent time.Time, ids []string) {
	var gone []string
	share, redisNow := 0, int64(0)
	err := l.call(ctx, func(ctx context.Context) (err error) {
		if l.cfg.Partition != PartitionFairShare {
			args := []any{l.cfg.LeaseTTL.Milliseconds()}
			gone, err = renewScript.Run(ctx, l.rdb, []string{l.key}, append(args, anys(ids)...)...).StringSlice()
			return err
		}
		l.mu.Lock()
		args := l.fairArgs()
		l.mu.Unlock()
		gone, err = fairRenewScript.Run(ctx, l.rdb, l.fairKeys(), append(args, anys(ids)...)...).StringSlice()
		if err == nil { // the share and Redis's clock first, then what was lost
			share, _ = strconv.Atoi(gone[0])
			redisNow, _ = strconv.ParseInt(gone[1], 10, 64)
			gone = gone[2:]
			if share < 0 {
				return errStale
			}
		}
		return err
	}, nil)
	if l.cfg.Partition == PartitionFairShare && err == nil {
		l.heard(sent, share, redisNow)
	}
	if err != nil && !errors.Is(err, redis.Nil) {
		l.cfg.Logger.Warn("bulkhead: could not renew fleet leases; they are lost unless a renewal succeeds within LeaseTTL",
			"lane", l.lane, "key", l.key, "leases", len(ids), "ttl", l.cfg.LeaseTTL, "error", err)
		return
	}
	l.redisOK()
	var lost []*Lease
	l.mu.Lock()
	for _, id := range ids {
		if lease := l.held[id]; lease != nil && lease.renewedAt.Before(sent) {
			lease.renewedAt = sent
		}
	}
	for _, id := range gone {
		if lease := l.held[id]; lease != nil {
			delete(l.held, id)
			lost = append(lost, lease)
		}
	}
	l.mu.Unlock()
	l.reportLost(lost, "Redis no longer had it, or gave it to an instance cut off from Redis that runs its fair share")
}

func anys(ids []string) []any {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return args
}

func (l *Limiter[L]) reportLost(lost []*Lease, why string) {
	for _, lease := range lost {
		l.lost.Add(1)
		l.cfg.Logger.Warn("bulkhead: a fleet lease expired while held: "+why+"; its work should stop",
			"lane", l.lane, "key", l.key, "ttl", l.cfg.LeaseTTL)
		lease.markLost()
	}
}

// Stats is a snapshot of a limiter.
type Stats struct {
	Lane              string
	Key               string
	Limit, LocalLimit int
	// Partition is the limiter's partition mode; Share its fair share of
	// Limit as Redis last allocated it (PartitionFairShare).
	Partition Partition
	Share     int
	// RedisTimeout is the timeout Redis calls are given now (adaptive
	// unless Config.RedisTimeout was set).
	RedisTimeout time.Duration
	// Fallback is true while Redis is unreachable and the partition mode
	// applies.
	Fallback bool
	// Held is Redis leases held by this process and not yet released, lost
	// ones included; HeldLocal local ones. Both count against LocalLimit
	// while Redis is unreachable.
	Held, HeldLocal int
	Waiting         int
	// Counters since the limiter was made.
	Acquired, Rejected, Fallbacks, Lost uint64
}

// Stats reads the limiter's state.
func (l *Limiter[L]) Stats() Stats {
	l.mu.Lock()
	s := Stats{Lane: l.lane, Key: l.key, Limit: l.cfg.Limit, LocalLimit: l.cfg.LocalLimit, Fallback: l.fallback, Held: l.redisHeld, HeldLocal: l.localHeld,
		Partition: l.cfg.Partition, Share: l.share}
	l.mu.Unlock()
	s.Waiting = int(l.waiters.Load())
	s.RedisTimeout = l.redisTimeout()
	s.Acquired, s.Rejected, s.Fallbacks, s.Lost = l.acquired.Load(), l.rejected.Load(), l.fallbacks.Load(), l.lost.Load()
	return s
}

// Do runs fn holding a lease. fn's context is canceled if the lease is lost.
func (l *Limiter[L]) Do(ctx context.Context, fn func(ctx context.Context) error) error {
	lease, err := l.Acquire(ctx)
	if err != nil {
		return err
	}
	defer lease.Release()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	lease.whenLost(cancel)
	return fn(ctx)
}
