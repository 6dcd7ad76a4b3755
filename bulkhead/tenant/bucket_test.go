package tenant

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/time/rate"
)

// TestBucketIsRateLimiter: random admissions, charges and reads at random
// times, some going back, give the bucket exactly rate.Limiter's answers
// and tokens.
func TestBucketIsRateLimiter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	epoch := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	for _, r := range []float64{0.001, 0.5, 1, 3, 10, 7.3, 1e3, 1e9, 1e12} {
		for _, burst := range []int{1, 2, 7, 100, 1 << 30} {
			lim := rate.NewLimiter(rate.Limit(r), burst)
			var b bucket
			fb := float64(burst)
			now := int64(rng.IntN(1000))
			b.full(now, fb)
			for op := range 3000 {
				now += int64(rng.ExpFloat64() * float64(time.Second) / r * 0.7)
				if rng.IntN(20) == 0 {
					now -= int64(rng.IntN(int(time.Second))) // a clock set back
				}
				at := epoch.Add(time.Duration(now))
				switch rng.IntN(4) {
				case 0:
					n := 1 + rng.IntN(burst)
					lim.ReserveN(at, n)
					b.take(now, n, r, fb)
				case 1:
					wantWait := time.Duration(math.Ceil((1 - lim.TokensAt(at)) / r * float64(time.Second)))
					if got := b.untilToken(now, r, fb); got != wantWait {
						t.Fatalf("rate %g burst %d op %d: next token in %s, Limiter says %s", r, burst, op, got, wantWait)
					}
				default:
					if got, want := b.allow(now, r, fb), lim.AllowN(at, 1); got != want {
						t.Fatalf("rate %g burst %d op %d: allow = %v, Limiter says %v", r, burst, op, got, want)
					}
				}
				if got, want := b.at(now, r, fb), lim.TokensAt(at); got != want {
					t.Fatalf("rate %g burst %d op %d: %v tokens, Limiter has %v", r, burst, op, got, want)
				}
			}
		}
	}
}

// TestBucketClockOverflow: a clock leaping across the int64 range fills
// the bucket (as time.Time.Sub saturates) instead of draining it.
func TestBucketClockOverflow(t *testing.T) {
	var b bucket
	b.full(math.MinInt64+1, 5)
	b.take(math.MinInt64+1, 5, 1, 5)
	if got := b.at(math.MaxInt64, 1, 5); got != 5 {
		t.Errorf("%v tokens after the longest wait, want the burst, 5", got)
	}
}

// TestLayout holds the sizes the package documentation's memory figures
// and the shards' cache lines rest on.
func TestLayout(t *testing.T) {
	if n := unsafe.Sizeof(state{}); n != 48 {
		t.Errorf("state is %d bytes, want 48 (a size class)", n)
	}
	if n := unsafe.Sizeof(shard{}); n != 64 {
		t.Errorf("shard is %d bytes, want 64 (a cache line)", n)
	}
	var l Lane
	if n := unsafe.Offsetof(l.shards); n != 0 {
		t.Errorf("shards at offset %d of Lane, want 0", n)
	}
	if calls, next := unsafe.Offsetof(l.calls), unsafe.Offsetof(l.tracked); calls%64 != 0 || next-calls < 64 {
		t.Errorf("Lane.calls at offset %d, the next field at %d: want a line of its own", calls, next)
	}
}
