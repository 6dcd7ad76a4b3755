package fleet

import (
	"sync"
	"time"
)

// Bounds of the adaptive RedisTimeout.
const (
	// MinRedisTimeout is the adaptive RedisTimeout's floor (and the fixed
	// default of earlier versions).
	MinRedisTimeout = 100 * time.Millisecond
	// FirstRedisTimeout is the adaptive RedisTimeout before Redis has
	// answered once (at most its ceiling), as TCP starts with a retransmit
	// timeout of 1s: with nothing learnt yet, a first answer slowed down by
	// a cold connection or a loaded machine would otherwise send every
	// caller to the fallback at start-up.
	FirstRedisTimeout = time.Second
)

// redisLatency estimates how long Redis takes to answer, as TCP estimates
// a round trip (RFC 6298): a smoothed latency and its mean deviation, fed
// every answer — the late ones of calls already abandoned included, so a
// Redis slowed down by CPU load raises the timeout instead of sending every
// caller to the fallback. The timeout is twice the smoothed latency plus
// four deviations, between MinRedisTimeout and max; FirstRedisTimeout
// until the first answer.
type redisLatency struct {
	max time.Duration

	mu              sync.Mutex
	smoothed, devia time.Duration
	timeout         time.Duration
}

func newRedisLatency(max time.Duration) *redisLatency {
	return &redisLatency{max: max, timeout: min(FirstRedisTimeout, max)}
}

func (r *redisLatency) observe(took time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.smoothed == 0 {
		r.smoothed, r.devia = took, took/2
	} else {
		diff := r.smoothed - took
		if diff < 0 {
			diff = -diff
		}
		r.devia += (diff - r.devia) / 4
		r.smoothed += (took - r.smoothed) / 8
	}
	r.timeout = min(max(2*r.smoothed+4*r.devia, MinRedisTimeout), r.max)
}

func (r *redisLatency) current() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.timeout
}
