package testsvc

import (
	"testing"
	"time"
)

// TestTrackerHeld: a count over the usual that lasts less than HeldFor (a
// discarded session's backend ending) is seen but not held; one that lasts
// longer (a leak of the bound) is held.
func TestTrackerHeld(t *testing.T) {
	tr := &Tracker{max: map[string]int{}, held: map[string]int{}}
	start := time.Now()
	poll := func(ms, brief, leak int) {
		tr.record(sample{at: start.Add(time.Duration(ms) * time.Millisecond), n: map[string]int{"brief": brief, "leak": leak}})
	}
	for ms := 0; ms <= 400; ms += 5 {
		brief, leak := 1, 1
		if ms >= 100 && ms < 160 { // over for 60 ms: the server ending a session under load
			brief = 2
		}
		if ms >= 200 && ms < 320 { // over for 120 ms: held
			leak = 2
		}
		poll(ms, brief, leak)
	}
	if got := tr.Held()["brief"]; got != 1 {
		t.Errorf("brief: held %d, want 1: two sessions for 60 ms is a session ending, not a leak", got)
	}
	if got := tr.Held()["leak"]; got != 2 {
		t.Errorf("leak: held %d, want 2: two sessions for 120 ms outlast HeldFor (%s)", got, HeldFor)
	}
}
