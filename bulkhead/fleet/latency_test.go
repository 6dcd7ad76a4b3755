package fleet

import (
	"testing"
	"time"
)

// TestRedisTimeoutAdapts: the timeout follows the answers Redis gives,
// between MinRedisTimeout and its ceiling: a Redis answering in 300ms under
// load is waited for, not taken for unreachable.
func TestRedisTimeoutAdapts(t *testing.T) {
	r := newRedisLatency(time.Second)
	if got := r.current(); got != MinRedisTimeout {
		t.Errorf("before any answer: %s, want %s", got, MinRedisTimeout)
	}
	for range 20 {
		r.observe(time.Millisecond)
	}
	if got := r.current(); got != MinRedisTimeout {
		t.Errorf("after fast answers: %s, want the floor %s", got, MinRedisTimeout)
	}
	for range 20 {
		r.observe(300 * time.Millisecond) // a loaded machine
	}
	if got := r.current(); got <= 300*time.Millisecond || got > time.Second {
		t.Errorf("after 300ms answers: %s, want more than 300ms and at most the ceiling of 1s", got)
	}
	for range 20 {
		r.observe(5 * time.Second)
	}
	if got := r.current(); got != time.Second {
		t.Errorf("after 5s answers: %s, want the ceiling of 1s", got)
	}
}
