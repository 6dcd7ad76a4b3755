package tenant

import (
	"math"
	"time"
)

// bucket is a tenant's token bucket: golang.org/x/time/rate's Limiter
// arithmetic (the same float tokens, the same conversions between tokens
// and durations), kept in 16 bytes under the shard lock the admission
// already holds. A rate.Limiter is 80 bytes with a mutex of its own and
// time.Time arithmetic: a quarter of an admission's CPU went to it. The
// refill and burst are the lane's (every tenant has the same), so they are
// passed in, not stored; times are nanoseconds on the lane's clock.
// TestBucketIsRateLimiter checks it against rate.Limiter.
type bucket struct {
	tokens float64 // tokens at last
	last   int64   // when tokens was last computed
}

// full makes the bucket hold burst tokens at now, as a new Limiter does on
// first use.
func (b *bucket) full(now int64, burst float64) { b.tokens, b.last = burst, now }

// at is Limiter.TokensAt: the tokens at now, the refill since last added
// and capped at the burst. A now before last adds nothing.
func (b *bucket) at(now int64, rate, burst float64) float64 {
	var elapsed time.Duration
	if now > b.last {
		elapsed = time.Duration(now - b.last)
		if elapsed < 0 { // overflowed: time.Time.Sub saturates
			elapsed = math.MaxInt64
		}
	}
	tokens := b.tokens + elapsed.Seconds()*rate
	if tokens > burst {
		tokens = burst
	}
	return tokens
}

// allow is Limiter.AllowN(now, 1): one token if the bucket holds it (or
// lacks less than a nanosecond's refill, as rate rounds), else nothing
// changes.
func (b *bucket) allow(now int64, rate, burst float64) bool {
	tokens := b.at(now, rate, burst) - 1
	if tokens < 0 && durationFromTokens(-tokens, rate) > 0 {
		return false
	}
	b.tokens, b.last = tokens, now
	return true
}

// take is Limiter.ReserveN(now, n) for n at most the burst: the tokens go
// whatever the bucket holds, into debt if need be.
func (b *bucket) take(now int64, n int, rate, burst float64) {
	b.tokens, b.last = b.at(now, rate, burst)-float64(n), now
}

// untilToken is how long until the bucket holds a whole token again,
// rounded up to the nanosecond.
func (b *bucket) untilToken(now int64, rate, burst float64) time.Duration {
	missing := 1 - b.at(now, rate, burst)
	return time.Duration(math.Ceil(missing / rate * float64(time.Second)))
}

// durationFromTokens is rate.Limit.durationFromTokens.
func durationFromTokens(tokens, rate float64) time.Duration {
	d := tokens / rate * float64(time.Second)
	if d > math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(d)
}
