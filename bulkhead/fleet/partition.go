package fleet

import (
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Partition is what a limiter does while Redis is unreachable (or answers
// slower than RedisTimeout). A fleet limit exists to protect a dependency
// that cannot take more, so each choice says what it promises.
type Partition uint8

const (
	// PartitionLocal runs up to LocalLimit leases in this process, counting
	// the Redis leases it still holds. The limit is soft: an instance cut
	// off runs its LocalLimit while the others, still on Redis, take the
	// whole Limit (their sum can exceed Limit until the partition ends).
	// The default, and the only mode that needs LocalLimit.
	PartitionLocal Partition = iota
	// PartitionFailClosed gives no lease without Redis: Acquire fails with
	// a LimitError whose Unreachable is true. The Redis leases already held
	// run on until released or lost. The limit holds.
	PartitionFailClosed
	// PartitionFairShare runs up to this instance's share of Limit: Limit
	// divided by the instances heard from in the last Config.ForgetAfter, kept in
	// Redis with their heartbeats (each acquire and renewal is one), and
	// allocated so that the shares never add up to more than Limit. While
	// an instance is silent the others count its share as taken, and one
	// that holds more than its own share gives the excess back (those
	// leases are lost: Lease.Lost closes, Do cancels the work). A cut-off
	// instance uses its share from 2×LeaseTTL + RedisTimeout after it last
	// sent Redis a call (by then every excess lease elsewhere is lost)
	// until ForgetAfter after the last call that answered was sent (when
	// Redis forgets it and its share); outside that window it fails
	// closed. The limit holds — Redis leases plus
	// local ones across all instances never exceed Limit — provided work
	// stops when its lease is lost; the price is that a silent instance's
	// share stays reserved until it is forgotten.
	PartitionFairShare
)

func (p Partition) String() string {
	switch p {
	case PartitionLocal:
		return "local"
	case PartitionFailClosed:
		return "fail_closed"
	case PartitionFairShare:
		return "fair_share"
	}
	return fmt.Sprintf("Partition(%d)", uint8(p))
}

// fallback says what the mode does while Redis is unreachable, for the log.
func (p Partition) fallback() string {
	switch p {
	case PartitionFailClosed:
		return "fails closed: no lease until Redis answers"
	case PartitionFairShare:
		return "falls back to this instance's fair share, from 2×LeaseTTL after Redis last answered"
	}
	return "falls back to this process's local limit"
}

// DefaultForgetAfter is Config.ForgetAfter's default, in LeaseTTLs; a
// value under 3×LeaseTTL is replaced by it.
const DefaultForgetAfter = 10

// The fair-share scripts keep, beside the leases (KEYS[1], members
// "<instance>:<seq>"), the instances' last heartbeats (KEYS[2], scored by
// Redis's clock) and their shares and local leases (KEYS[3], fields
// "<instance>" and "<instance>local"). fairPrelude forgets instances not
// heard from for ARGV forget, records the caller's heartbeat and local
// leases, allocates its share, and computes taken: every listed lease,
// every live instance's local leases, and for each silent instance the
// part of its share it does not hold in Redis. A call that arrives after
// ARGV notAfter (Redis's clock, as the caller estimates it; 0: no bound)
// changes nothing and answers {-1, now}: its caller has given up on it, and
// a heartbeat recorded then would make an instance that believes itself
// cut off, and runs its share, look alive to the others.
const fairPrelude = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local notAfter = tonumber(ARGV[7])
if notAfter > 0 and now > notAfter then return {-1, now} end
local limit, ttl = tonumber(ARGV[1]), tonumber(ARGV[2])
local inst, silent, forget, localHeld = ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
for _, g in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - forget)) do
  redis.call('HDEL', KEYS[3], g, g .. 'local')
end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - forget)
redis.call('ZADD', KEYS[2], now, inst)
redis.call('HSET', KEYS[3], inst .. 'local', localHeld)
local others = 0
local fields = redis.call('HGETALL', KEYS[3])
for i = 1, #fields, 2 do
  local f = fields[i]
  if f ~= inst and string.sub(f, -5) ~= 'local' then others = others + tonumber(fields[i + 1]) end
end
local share = math.min(math.floor(limit / redis.call('ZCARD', KEYS[2])), limit - others)
if share < 0 then share = 0 end
redis.call('HSET', KEYS[3], inst, share)
local listed = {}
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, m in ipairs(members) do
  local owner = string.match(m, '^(.*:)')
  listed[owner] = (listed[owner] or 0) + 1
end
local taken = #members
local live = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. (now - silent), '+inf')
for _, i in ipairs(live) do
  taken = taken + tonumber(redis.call('HGET', KEYS[3], i .. 'local') or '0')
end
for _, s in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now - silent)) do
  local sh = tonumber(redis.call('HGET', KEYS[3], s) or '0')
  local lo = tonumber(redis.call('HGET', KEYS[3], s .. 'local') or '0')
  taken = taken + math.max(sh - (listed[s] or 0), lo)
end
for _, k in ipairs(KEYS) do redis.call('PEXPIRE', k, math.max(ttl * 2, forget)) end
`

var (
	// fairAcquireScript: ARGV limit, ttl, instance, silent, forget, local
	// leases, notAfter, lease id. Returns {granted, share, now}.
	fairAcquireScript = redis.NewScript(fairPrelude + `
if taken < limit then
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[8])
  return {1, share, now}
end
return {0, share, now}`)
	// fairRenewScript: ARGV as fairAcquireScript's, then the ids to renew.
	// Returns {share, now, lost ids...}: ids Redis no longer had, and, while
	// the fleet counts more than limit taken, ids beyond the caller's share.
	fairRenewScript = redis.NewScript(fairPrelude + `
local lost = {}
local kept = {}
for i = 8, #ARGV do
  local s = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if s and tonumber(s) > now then table.insert(kept, ARGV[i]) else
    redis.call('ZREM', KEYS[1], ARGV[i])
    table.insert(lost, ARGV[i])
  end
end
local excess = math.min(taken - limit, #kept + localHeld - share)
for i = #kept, 1, -1 do
  if excess > 0 then
    redis.call('ZREM', KEYS[1], kept[i])
    table.insert(lost, kept[i])
    excess = excess - 1
  else
    redis.call('ZADD', KEYS[1], 'XX', now + ttl, kept[i])
  end
end
table.insert(lost, 1, now)
table.insert(lost, 1, share)
return lost`)
)

// fairArgs are the arguments fairPrelude reads, for a call sent now.
// Callers hold l.mu.
func (l *Limiter[L]) fairArgs() []any {
	l.lastFairSent = time.Now()
	var notAfter int64 // no bound until an answer has told Redis's clock
	if !l.lastHeard.IsZero() {
		notAfter = time.Now().Add(l.redisOffset + l.redisTimeout()).UnixMilli()
	}
	return []any{l.cfg.Limit, l.cfg.LeaseTTL.Milliseconds(), l.prefix,
		l.cfg.LeaseTTL.Milliseconds(), l.forgetAfter().Milliseconds(), l.localHeld, notAfter}
}

// errStale is a fair-share script's answer to a call that reached Redis
// after its caller had given up on it.
var errStale = errors.New("the call reached Redis after its caller had given up on it")

// heard records a fair-share script's answer to a call sent at sent:
// Redis recorded the heartbeat at redisNow (its clock, in ms), between
// sent and now, and allocated share.
func (l *Limiter[L]) heard(sent time.Time, share int, redisNow int64) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	// Redis's clock less ours, at most the true offset (Redis answered
	// before now): deadlines computed from it come early, not late.
	l.redisOffset = time.UnixMilli(redisNow).Sub(now)
	if sent.After(l.lastAnswer) {
		l.lastAnswer, l.lastHeard, l.share = sent, now, share
	}
}

func (l *Limiter[L]) fairKeys() []string {
	return []string{l.key, l.key + ":instances", l.key + ":shares"}
}

func (l *Limiter[L]) forgetAfter() time.Duration { return l.cfg.ForgetAfter }

// partitionLimit is how many leases (Redis ones still held included) this
// process may run while Redis is unreachable, and whether the mode allows
// any. Callers hold l.mu.
func (l *Limiter[L]) partitionLimit(now time.Time) int {
	switch l.cfg.Partition {
	case PartitionFailClosed:
		return 0
	case PartitionFairShare:
		// Redis recorded our last heartbeat no later than RedisTimeout
		// after the last fair-share call was sent (a later one is refused
		// by notAfter). Until 2×LeaseTTL after it, a lease another instance
		// holds beyond its share may still run (the others see us silent
		// after LeaseTTL, and give their excess back at their next renewal,
		// or lose it LeaseTTL after their last one). Counting from the send
		// also means no local lease is taken while a call is out, so the
		// local leases a call reports to Redis can only have gone down by
		// the time it runs. ForgetAfter after the last call that answered
		// was sent, Redis gives our share to the others.
		if l.lastAnswer.IsZero() || now.Sub(l.lastFairSent) < 2*l.cfg.LeaseTTL+l.redisTimeout() || now.Sub(l.lastAnswer) >= l.forgetAfter() {
			return 0
		}
		return l.share
	}
	return l.cfg.LocalLimit
}
