// Package fakeclock is a controllable clock for tests: time moves only when
// the test calls Advance, and timers fire in order as it passes them.
package fakeclock

import (
	"sort"
	"sync"
	"time"
)

// Clock implements bulkhead.Clock.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	seq    int
	timers []*timer
}

type timer struct {
	when time.Time
	seq  int // keeps timers due at the same instant in creation order
	f    func()
}

// New returns a clock that reads start until advanced.
func New(start time.Time) *Clock { return &Clock{now: start} }

// Now is the clock's current time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f for when the clock reaches now+d. It never calls f
// itself; Advance does.
func (c *Clock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := &timer{when: c.now.Add(d), seq: c.seq, f: f}
	c.timers = append(c.timers, t)
	return func() bool { return c.stop(t) }
}

func (c *Clock) stop(t *timer) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, x := range c.timers {
		if x == t {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			return true
		}
	}
	return false
}

// Advance moves the clock forward by d, calling each timer that falls due, in
// order, synchronously and without holding the clock's lock (timers may
// schedule more timers, which fire too if due).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		t := c.popDue(end)
		if t == nil {
			break
		}
		t.f()
	}
	c.mu.Lock()
	c.now = end
	c.mu.Unlock()
}

// popDue removes and returns the earliest timer due by end, moving the clock
// to its time.
func (c *Clock) popDue(end time.Time) *timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.timers) == 0 {
		return nil
	}
	sort.Slice(c.timers, func(i, j int) bool {
		a, b := c.timers[i], c.timers[j]
		if !a.when.Equal(b.when) {
			return a.when.Before(b.when)
		}
		return a.seq < b.seq
	})
	t := c.timers[0]
	if t.when.After(end) {
		return nil
	}
	c.timers = c.timers[1:]
	if t.when.After(c.now) {
		c.now = t.when
	}
	return t
}

// Pending is the number of timers not yet fired or stopped.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}
