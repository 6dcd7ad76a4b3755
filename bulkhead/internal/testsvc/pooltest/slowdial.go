package pooltest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// SlowDial: every connect takes longer than the pool's AcquireTimeout, and
// no connection is open yet. A caller that gives up on a dial fails with a
// timeout that says a connection was being opened (not that the budget
// stayed in use), the dial goes on and keeps its slot meanwhile
// (Stats.Pending), and its connection serves a later caller: the database
// is slow to reach, not unreachable.
func SlowDial(t *testing.T, p Pool) {
	t.Helper()
	_, _, err := p.Acquire(context.Background())
	var ae *lanepool.AcquireError
	if !errors.As(err, &ae) || ae.Reason != lanepool.ReasonTimeout || !errors.Is(err, bulkhead.ErrRejected) {
		t.Fatalf("first acquire with a connect slower than AcquireTimeout: %v, want a ReasonTimeout rejection", err)
	}
	s := p.Stats()
	if s.Pending < 1 || s.InUse != 0 {
		t.Errorf("stats right after the caller gave up on its dial: %+v, want the dial's slot pending and none in use", s)
	}
	if msg := err.Error(); strings.Contains(msg, "stayed in use") || !strings.Contains(msg, "opening a new connection") {
		t.Errorf("the error blames connections in use, or does not say a connection was being opened: %v", err)
	}
	start := time.Now()
	for failed := 1; time.Since(start) < 10*time.Second; failed++ {
		ping, release, err := p.Acquire(context.Background())
		if err == nil {
			perr := ping(context.Background())
			release()
			if perr != nil {
				t.Fatalf("ping on the connection a slow dial opened: %v", perr)
			}
			t.Logf("served %s after the first acquire failed, %d acquires failed before", time.Since(start).Round(time.Millisecond), failed)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no acquire got a connection in 10s: a database whose connect takes longer than AcquireTimeout is unreachable; stats %+v", p.Stats())
}
