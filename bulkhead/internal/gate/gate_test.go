package gate

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"go.uber.org/goleak"
)

func newGate(t testing.TB, cfg lanepool.Config) *Gate {
	t.Helper()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.RetryAfter = time.Second
	cfg.ApplicationName = "x"
	return New("lane", "test", cfg)
}

// TestStress: many callers acquiring, holding, giving up and timing out;
// the budget is never exceeded, every caller gets an answer, and nothing
// is left held, queued or watched.
func TestStress(t *testing.T) {
	defer goleak.VerifyNone(t)
	g := newGate(t, lanepool.Config{MaxConns: 3, MaxWaiters: 4, AcquireTimeout: 2 * time.Millisecond, LeakThreshold: time.Millisecond, OnLeak: func(lanepool.Leak) {}})
	var holders, most, ok, failed atomic.Int64
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for range 200 {
				ctx, cancel := context.WithCancel(context.Background())
				if rng.IntN(8) == 0 {
					cancel()
				}
				tk, _, err := g.Acquire(ctx, 0)
				cancel()
				if err != nil {
					var ae *lanepool.AcquireError
					if !errors.As(err, &ae) {
						t.Errorf("unexpected error %v", err)
					}
					failed.Add(1)
					continue
				}
				n := holders.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				if rng.IntN(4) == 0 {
					time.Sleep(time.Duration(rng.IntN(1500)) * time.Microsecond)
				}
				holders.Add(-1)
				if !tk.Release() || tk.Release() {
					t.Error("Release must release exactly once")
				}
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	if most.Load() > 3 {
		t.Errorf("%d holders at once, budget 3", most.Load())
	}
	s := g.Stats()
	if s.InUse != 0 || s.Waiting != 0 || g.heldHead != nil || g.queue.Front() != nil {
		t.Errorf("left behind: %+v", s)
	}
	if int64(s.Acquired) != ok.Load() || int64(s.Failed) != failed.Load() || ok.Load()+failed.Load() != 32*200 {
		t.Errorf("counts: stats %+v, ok %d, failed %d", s, ok.Load(), failed.Load())
	}
	t.Logf("%d acquired, %d failed, %d timeouts, %d leaks reported", s.Acquired, s.Failed, s.Timeouts, s.Leaks)
	time.Sleep(5 * time.Millisecond) // a pending leak timer finds nothing and stops
}

func TestFIFOAndHandOff(t *testing.T) {
	g := newGate(t, lanepool.Config{MaxConns: 1, MaxWaiters: 3, AcquireTimeout: 10 * time.Second, LeakThreshold: -1})
	first, _, err := g.Acquire(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	order := make(chan int, 3)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tk, _, err := g.Acquire(context.Background(), 0)
			if err != nil {
				t.Error(err)
				return
			}
			order <- i
			tk.Release()
		}()
		for g.Stats().Waiting != i+1 {
			time.Sleep(time.Millisecond)
		}
	}
	if _, _, err := g.Acquire(context.Background(), 0); err == nil {
		t.Fatal("a fourth waiter was admitted")
	}
	first.Release()
	wg.Wait()
	close(order)
	want := 0
	for got := range order {
		if got != want {
			t.Errorf("waiter %d served in place %d", got, want)
		}
		want++
	}
}

func TestLeakOrderAndReturn(t *testing.T) {
	var mu sync.Mutex
	var leaks []lanepool.Leak
	g := newGate(t, lanepool.Config{MaxConns: 3, AcquireTimeout: time.Second, LeakThreshold: 20 * time.Millisecond, OnLeak: func(l lanepool.Leak) {
		mu.Lock()
		leaks = append(leaks, l)
		mu.Unlock()
	}})
	a, _, _ := g.Acquire(context.Background(), 0)
	b, _, _ := g.Acquire(context.Background(), 0)
	b.Release() // given back in time: never reported
	c, _, _ := g.Acquire(context.Background(), 0)
	for g.Stats().Leaks < 2 {
		time.Sleep(time.Millisecond)
	}
	a.Release()
	c.Release()
	mu.Lock()
	defer mu.Unlock()
	if len(leaks) != 2 || leaks[0].AcquiredAt.After(leaks[1].AcquiredAt) || leaks[0].Held < 20*time.Millisecond {
		t.Errorf("leaks: %+v", leaks)
	}
	if g.heldHead != nil {
		t.Error("held list not empty")
	}
}

// TestAdmitGrantReturn: a pool's ticket counts as acquired and in use only
// once granted, stops counting as in use once returned, and keeps its slot
// (Pending) until released; a returned ticket is not reported as a leak.
func TestAdmitGrantReturn(t *testing.T) {
	leaks := make(chan lanepool.Leak, 2)
	g := newGate(t, lanepool.Config{MaxConns: 2, AcquireTimeout: time.Second, LeakThreshold: 5 * time.Millisecond,
		OnLeak: func(l lanepool.Leak) { leaks <- l }})
	check := func(what string, inUse, pending int, acquired uint64) {
		t.Helper()
		if s := g.Stats(); s.InUse != inUse || s.Pending != pending || s.Acquired != acquired {
			t.Errorf("%s: in use %d, pending %d, acquired %d; want %d, %d, %d", what, s.InUse, s.Pending, s.Acquired, inUse, pending, acquired)
		}
	}
	failed, _, err := g.Admit(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	check("admitted, dialing", 0, 1, 0)
	_ = g.Fail(lanepool.ReasonConnect, 0, errors.New("refused"))
	failed.Release()
	check("the dial failed", 0, 0, 0)

	tk, _, err := g.Admit(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	tk.Grant()
	check("granted", 1, 0, 1)
	tk.Returned()
	tk.Returned()
	check("returned, the session not yet ended", 0, 1, 1)
	time.Sleep(20 * time.Millisecond) // past the leak threshold
	tk.Release()
	check("released", 0, 0, 1)
	select {
	case l := <-leaks:
		t.Errorf("a returned connection was reported as leaked: %+v", l)
	default:
	}
	if s := g.Stats(); s.Failed != 1 {
		t.Errorf("failed %d, want 1", s.Failed)
	}
}

// TestDialOutlivesItsCaller: a caller that gives up while its connection is
// being opened gets an error saying so; the dial goes on holding the slot
// (pending, not in use), its connection goes to late, and only then is the
// slot released.
func TestDialOutlivesItsCaller(t *testing.T) {
	defer goleak.VerifyNone(t)
	g := newGate(t, lanepool.Config{MaxConns: 1, AcquireTimeout: time.Hour, LeakThreshold: -1})
	tk, deadline, err := g.Admit(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	connected := make(chan struct{})
	kept := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the caller gives up before the dial ends
	_, gaveUp, err := Dial(ctx, tk, deadline, func(context.Context) (string, error) {
		<-connected
		return "conn", nil
	}, func(c string, err error) { kept <- c })
	var ae *lanepool.AcquireError
	if !gaveUp || !errors.As(err, &ae) || ae.Reason != lanepool.ReasonCanceled || !ae.Dialing {
		t.Fatalf("Dial: gaveUp %v, %v; want a canceled acquire that was dialing", gaveUp, err)
	}
	if s := g.Stats(); s.Pending != 1 || s.InUse != 0 || s.Failed != 1 {
		t.Errorf("while the dial goes on: %+v, want its slot pending", s)
	}
	close(connected)
	if c := <-kept; c != "conn" {
		t.Errorf("late got %q", c)
	}
	for !tk.Released() {
		time.Sleep(time.Millisecond)
	}
	if s := g.Stats(); s.Pending != 0 {
		t.Errorf("after the dial ended: %+v, want the slot released", s)
	}
}
