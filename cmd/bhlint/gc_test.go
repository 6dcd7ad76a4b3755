package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestScaledLimit(t *testing.T) {
	const floor = 320 << 20
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, floor},
		{100 << 20, floor},
		{160 << 20, floor},
		{161 << 20, 322 << 20},
		{340 << 20, 680 << 20},
		{math.MaxUint64 / 2, floor}, // overflow: keep the floor
	} {
		if got := scaledLimit(c.live, floor, 2); got != c.want {
			t.Errorf("scaledLimit(%d MiB) = %d MiB, want %d MiB", c.live>>20, got>>20, c.want>>20)
		}
	}
}

// A live heap above half the floor raises the soft limit after a collection
// (the collector would otherwise run almost continuously), and the limit is
// never lowered when the heap shrinks again.
func TestFollowLiveHeap(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	const floor = 8 << 20
	debug.SetMemoryLimit(floor)
	stop := followLiveHeap(floor, 2)
	defer stop()

	live := make([][]byte, 64) // 64 MiB kept live
	for i := range live {
		live[i] = make([]byte, 1<<20)
		live[i][0] = 1
	}
	deadline := time.Now().Add(30 * time.Second)
	var raised int64
	for time.Now().Before(deadline) {
		runtime.GC()
		if raised = debug.SetMemoryLimit(-1); raised >= 2*64<<20 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if raised < 2*64<<20 {
		t.Fatalf("soft limit %d MiB with 64 MiB live, want at least 128 MiB", raised>>20)
	}
	runtime.KeepAlive(live)

	live = nil
	for range 3 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := debug.SetMemoryLimit(-1); got < raised {
		t.Errorf("soft limit lowered from %d MiB to %d MiB after the heap shrank", raised>>20, got>>20)
	}
}

// GOGC or GOMEMLIMIT in the environment: the user's settings stay.
func TestTuneVetToolKeepsUserSettings(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	oldPercent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(oldPercent)
	t.Setenv("GOGC", "150")
	tuneVetTool(nil)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d with GOGC set, want it left at 100", got)
	}
	if got := debug.SetMemoryLimit(-1); got != old {
		t.Errorf("memory limit %d with GOGC set, want it left at %d", got, old)
	}
}
