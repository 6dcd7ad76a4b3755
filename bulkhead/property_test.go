package bulkhead

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/fakeclock"
)

// propLane is reconfigured per sequence through propSpec, so one lane type
// covers many shapes. Sequences run one at a time.
type propLane struct{}

var propSpec LaneSpec

func (propLane) Spec() LaneSpec { return propSpec }

// Op states, as the test sees them.
const (
	opPending  int32 = iota // Do called: queued, or between states
	opRunning               // inside the work
	opExited                // the work returned; Do not yet
	opReturned              // Do returned
)

type propOp struct {
	state    atomic.Int32
	ran      atomic.Bool
	finish   chan bool    // true: return normally, false: panic
	ctx      *expiringCtx // ended by the test: canceled or past its deadline
	panicked bool
	ending   bool // told to finish, panic, cancel or expire: must return
	err      error
}

// TestPropertyRandomSequences drives thousands of random sequences of
// acquire, finish, panic, cancel, deadline and queue timeouts, and checks
// after every step that no more than the limit run, no more than the
// capacity wait, the executor's counts match what is really running and
// waiting, and that at the end every slot is back.
func TestPropertyRandomSequences(t *testing.T) {
	seqs, steps := 2000, 40
	if testing.Short() {
		seqs = 200
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d; a failure names the seed of its own sequence", seed)
	for i := range seqs {
		s := seed + uint64(i)
		if !runSequence(t, s, steps) {
			t.Fatalf("sequence with seed %d failed", s)
		}
	}
	t.Logf("outcomes over %d sequences: %v", seqs, propOutcomes)
	for _, want := range []string{"ran", "panicked", "canceled", "queue_full", "wait_timeout", "deadline", "saturated"} {
		if propOutcomes[want] == 0 {
			t.Errorf("no sequence produced the outcome %q; the generator is not covering it", want)
		}
	}
}

// propOutcomes counts how ops ended, to show the generator reaches every path.
var propOutcomes = map[string]int{}

func runSequence(t *testing.T, seed uint64, steps int) bool {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	limit := 1 + rng.IntN(4)
	propSpec = LaneSpec{
		MaxConcurrent: limit,
		MaxQueued:     rng.IntN(4),
		QueueTimeout:  time.Duration(1+rng.IntN(5)) * time.Second,
		Reserved:      rng.IntN(limit),
		RecoverAfter:  3 * time.Second,
	}
	clock := fakeclock.New(epoch)
	e := MustExecutor[propLane](WithClock(clock))
	var (
		wg      sync.WaitGroup
		ops     []*propOp
		running atomic.Int32
		failed  atomic.Bool
	)
	fail := func(format string, args ...any) {
		t.Errorf("seed %d, spec %+v: %s", seed, propSpec, fmt.Sprintf(format, args...))
		failed.Store(true)
	}
	launch := func() {
		op := &propOp{finish: make(chan bool, 1), ctx: newExpiringCtx()}
		var opCtx context.Context = op.ctx
		if rng.IntN(3) == 0 {
			opCtx = WithCritical(opCtx)
		}
		ops = append(ops, op)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer op.state.Store(opReturned)
			defer func() { op.panicked = recover() != nil }()
			op.err = e.Do(opCtx, func(ctx context.Context) error {
				op.ran.Store(true)
				if n := running.Add(1); int(n) > limit {
					fail("%d running, limit %d", n, limit)
				}
				op.state.Store(opRunning)
				defer op.state.Store(opExited)
				defer running.Add(-1)
				select {
				case normal := <-op.finish:
					if !normal {
						panic("work panicked")
					}
				case <-ctx.Done():
				}
				return nil
			})
		}()
	}
	pick := func(want int32) *propOp {
		var c []*propOp
		for _, op := range ops {
			if !op.ending && op.state.Load() == want {
				c = append(c, op)
			}
		}
		if len(c) == 0 {
			return nil
		}
		return c[rng.IntN(len(c))]
	}
	settle := func() {
		waitFor(t, "a settled executor", func() bool {
			pending, exited := 0, 0
			for _, op := range ops {
				switch op.state.Load() {
				case opPending:
					pending++
				case opExited:
					exited++
				}
			}
			for _, op := range ops {
				if op.ending && op.state.Load() != opReturned {
					return false
				}
			}
			return exited == 0 && pending == e.Stats().Queued
		})
	}
	check := func() {
		s := e.Stats()
		if s.Active > limit || s.Queued > propSpec.MaxQueued {
			fail("stats %+v exceed the spec", s)
		}
		if n := int(running.Load()); s.Active != n {
			fail("executor counts %d active, %d really running", s.Active, n)
		}
	}

	for range steps {
		switch k := rng.IntN(10); {
		case k < 4:
			launch()
		case k < 6:
			if op := pick(opRunning); op != nil {
				op.ending = true
				op.finish <- true
			}
		case k < 7:
			if op := pick(opRunning); op != nil {
				op.ending = true
				op.finish <- false
			}
		case k < 8:
			if op := pick(int32(rng.IntN(2))); op != nil { // waiting or running
				op.ending = true
				op.ctx.cancel()
			}
		case k < 9:
			if op := pick(int32(rng.IntN(2))); op != nil {
				op.ending = true
				op.ctx.expire()
			}
		default:
			clock.Advance(time.Duration(rng.IntN(3000)) * time.Millisecond)
		}
		settle()
		check()
		if failed.Load() {
			break
		}
	}

	// Let everything go, then every slot must be back.
	for _, op := range ops {
		op.ctx.cancel()
	}
	wg.Wait()
	clock.Advance(time.Hour) // lets a RECOVERING lane become NORMAL
	for _, op := range ops {
		rej, rejected := AsRejection(op.err)
		switch {
		case rejected && op.ran.Load():
			fail("rejected work ran: %v", op.err)
		case rejected:
			propOutcomes[rej.Reason.String()]++
		case op.panicked:
			propOutcomes["panicked"]++
		case op.ran.Load():
			propOutcomes["ran"]++
		case errors.Is(op.err, context.Canceled):
			propOutcomes["canceled"]++
		}
	}
	if s := e.Stats(); s.Active != 0 || s.Queued != 0 || s.State != StateNormal {
		fail("after the sequence: %+v, want every slot back and NORMAL", s)
	}
	for range limit { // and they can all be taken again, at once
		if !e.l.tryTake() {
			fail("a slot was lost")
		}
	}
	return !failed.Load()
}

// tryTake takes a slot without waiting, for the leak check above.
func (l *limiter) tryTake() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.active < l.spec.MaxConcurrent {
		l.active++
		return true
	}
	return false
}
