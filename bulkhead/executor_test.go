package bulkhead

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/internal/fakeclock"
)

var epoch = time.Date(2026, 9, 15, 12, 0, 0, 0, time.UTC)

type one struct{} // 1 slot, no queue

func (one) Spec() LaneSpec { return LaneSpec{MaxConcurrent: 1, RetryAfter: 5 * time.Second} }

type fifo struct{} // 1 slot, 4 queue places

func (fifo) Spec() LaneSpec {
	return LaneSpec{MaxConcurrent: 1, MaxQueued: 4, QueueTimeout: time.Second, Policy: PolicyThrottle}
}

type twoOne struct{} // 2 slots, 1 queue place

func (twoOne) Spec() LaneSpec {
	return LaneSpec{MaxConcurrent: 2, MaxQueued: 1, QueueTimeout: time.Second}
}

type ten struct{} // 10 slots, no queue: easy percentages

func (ten) Spec() LaneSpec { return LaneSpec{MaxConcurrent: 10} }

type reserved struct{} // 3 slots, the last one critical only

func (reserved) Spec() LaneSpec {
	return LaneSpec{MaxConcurrent: 3, Reserved: 1, MaxQueued: 4, QueueTimeout: time.Second}
}

func TestSpecDefaultsAndName(t *testing.T) {
	e := MustExecutor[fifo]()
	s := e.Spec()
	if s.Name != "fifo" || s.RetryAfter != 5*time.Second || s.RecoverAfter != 10*time.Second {
		t.Errorf("resolved spec = %+v", s)
	}
	if got := s.Code(); got != "ERR_FIFO_BULKHEAD_SATURATED" {
		t.Errorf("Code() = %q", got)
	}
	for in, want := range map[string]string{"CardAuth": "card_auth", "Tax": "tax", "HTTPProxy": "http_proxy", "FraudV2": "fraud_v2", "X": "x"} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

type noLimit struct{}

func (noLimit) Spec() LaneSpec { return LaneSpec{} }

type queueNoTimeout struct{}

func (queueNoTimeout) Spec() LaneSpec { return LaneSpec{MaxConcurrent: 2, MaxQueued: 5} }

type allReserved struct{}

func (allReserved) Spec() LaneSpec { return LaneSpec{MaxConcurrent: 2, Reserved: 2} }

type badName struct{}

func (badName) Spec() LaneSpec { return LaneSpec{Name: "Card-Auth", MaxConcurrent: 1} }

func TestSpecValidation(t *testing.T) {
	for name, newExec := range map[string]func() error{
		"MaxConcurrent": func() error { _, err := NewExecutor[noLimit](); return err },
		"QueueTimeout":  func() error { _, err := NewExecutor[queueNoTimeout](); return err },
		"Reserved":      func() error { _, err := NewExecutor[allReserved](); return err },
		"snake case":    func() error { _, err := NewExecutor[badName](); return err },
	} {
		err := newExec()
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error = %v, want one naming %s", name, err, name)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("MustExecutor did not panic on an invalid spec")
		}
	}()
	MustExecutor[noLimit]()
}

func TestLimitFailsFastWithoutQueue(t *testing.T) {
	e := MustExecutor[one]()
	var wg sync.WaitGroup
	defer wg.Wait()
	holder := start(context.Background(), &wg, e)
	holder.running(t)

	called := false
	err := e.Do(context.Background(), func(context.Context) error { called = true; return nil })
	rej, ok := AsRejection(err)
	if !ok || called {
		t.Fatalf("second call: err = %v, called = %v; want a rejection and no call", err, called)
	}
	if rej.Lane != "one" || rej.Reason != ReasonSaturated || rej.RetryAfter != 5*time.Second ||
		rej.Status != 503 || rej.Code != "ERR_ONE_BULKHEAD_SATURATED" {
		t.Errorf("rejection = %+v", rej)
	}
	if !errors.Is(err, ErrRejected) || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("errors.Is: ErrRejected %v, DeadlineExceeded %v", errors.Is(err, ErrRejected), errors.Is(err, context.DeadlineExceeded))
	}
	if want := `lane "one" rejected the work, which was not started: all 1 slots are busy and the lane queues nothing; retry after 5s`; !strings.Contains(err.Error(), want) {
		t.Errorf("message %q does not say %q", err, want)
	}
	if err := holder.result(t); err != nil {
		t.Fatal(err)
	}
	if err := e.Do(context.Background(), func(context.Context) error { return nil }); err != nil {
		t.Errorf("after release: %v", err)
	}
}

func TestFIFOHandOffNoBarging(t *testing.T) {
	e := MustExecutor[fifo](WithClock(fakeclock.New(epoch)))
	var wg sync.WaitGroup
	defer wg.Wait()
	var mu sync.Mutex
	var order []string
	run := func(name string, finish chan struct{}) *job {
		j := &job{entered: make(chan struct{}), finish: finish, done: make(chan error, 1)}
		wg.Add(1)
		go func() {
			defer wg.Done()
			j.done <- e.Do(context.Background(), func(context.Context) error {
				mu.Lock()
				order = append(order, name)
				mu.Unlock()
				close(j.entered)
				<-j.finish
				return nil
			})
		}()
		return j
	}
	holder := run("holder", make(chan struct{}))
	holder.running(t)
	var queued []*job
	for i, name := range []string{"a", "b", "c"} {
		queued = append(queued, run(name, make(chan struct{})))
		waitFor(t, name+" queued", func() bool { return e.Stats().Queued == i+1 })
	}
	if err := holder.result(t); err != nil {
		t.Fatal(err)
	}
	// The slot went straight to a: it is still counted as taken, so a
	// newcomer arriving now queues behind c instead of slipping in.
	if s := e.Stats(); s.Active != 1 || s.Queued != 2 {
		t.Fatalf("after release: %+v, want 1 active (handed to a) and 2 queued", s)
	}
	late := run("late", make(chan struct{}))
	waitFor(t, "late queued", func() bool { return e.Stats().Queued == 3 })
	for _, j := range append(queued, late) {
		j.running(t)
		if err := j.result(t); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(order, ","); got != "holder,a,b,c,late" {
		t.Errorf("run order = %s, want holder,a,b,c,late", got)
	}
}

func TestQueueFullThenSaturatedFailsFast(t *testing.T) {
	e := MustExecutor[twoOne](WithClock(fakeclock.New(epoch)))
	var wg sync.WaitGroup
	defer wg.Wait()
	a, b := start(context.Background(), &wg, e), start(context.Background(), &wg, e)
	a.running(t)
	b.running(t)
	waiter := start(context.Background(), &wg, e)
	waitFor(t, "waiter queued", func() bool { return e.Stats().Queued == 1 })
	if s := e.Stats(); s.State != StateSaturated {
		t.Fatalf("2/2 running and 1/1 queued: state %v, want SATURATED", s.State)
	}
	err := e.Do(context.Background(), func(context.Context) error { return nil })
	if rej, ok := AsRejection(err); !ok || rej.Reason != ReasonQueueFull {
		t.Fatalf("arrival at a full lane: %v, want queue_full", err)
	}
	if want := "all 2 slots are busy and all 1 queue places are taken"; !strings.Contains(err.Error(), want) {
		t.Errorf("queue_full message %q lacks %q", err, want)
	}
	// a finishes: its slot goes to the waiter, the queue has room, but a
	// SATURATED lane does not queue: newcomers fail fast.
	if err := a.result(t); err != nil {
		t.Fatal(err)
	}
	waiter.running(t)
	err = e.Do(context.Background(), func(context.Context) error { return nil })
	if rej, ok := AsRejection(err); !ok || rej.Reason != ReasonSaturated {
		t.Fatalf("arrival while SATURATED with queue room: %v, want saturated", err)
	}
	for _, j := range []*job{b, waiter} {
		if err := j.result(t); err != nil {
			t.Fatal(err)
		}
	}
}

func TestWaitTimeout(t *testing.T) {
	clock := fakeclock.New(epoch)
	e := MustExecutor[fifo](WithClock(clock))
	var wg sync.WaitGroup
	defer wg.Wait()
	holder := start(context.Background(), &wg, e)
	holder.running(t)
	waiter := start(context.Background(), &wg, e)
	waitFor(t, "waiter queued", func() bool { return e.Stats().Queued == 1 })

	clock.Advance(999 * time.Millisecond)
	if e.Stats().Queued != 1 {
		t.Fatal("waiter left the queue before its QueueTimeout")
	}
	clock.Advance(time.Millisecond)
	err := waiter.result(t)
	rej, ok := AsRejection(err)
	if !ok || rej.Reason != ReasonWaitTimeout || rej.Waited != time.Second || rej.Status != 429 {
		t.Fatalf("timed-out waiter: %v (%+v)", err, rej)
	}
	if waiter.started() {
		t.Error("timed-out work was started")
	}
	if !strings.Contains(err.Error(), "waited 1s in the queue") {
		t.Errorf("message %q does not say how long it waited", err)
	}
	if err := holder.result(t); err != nil {
		t.Fatal(err)
	}
	if s := e.Stats(); s.Active != 0 || s.Queued != 0 {
		t.Errorf("after all: %+v", s)
	}
}

func TestDeadlinePassedWhileQueued(t *testing.T) {
	e := MustExecutor[fifo](WithClock(fakeclock.New(epoch)))
	var wg sync.WaitGroup
	defer wg.Wait()
	holder := start(context.Background(), &wg, e)
	holder.running(t)
	ctx := newExpiringCtx()
	waiter := start(ctx, &wg, e)
	waitFor(t, "waiter queued", func() bool { return e.Stats().Queued == 1 })
	ctx.expire()
	err := waiter.result(t)
	if rej, ok := AsRejection(err); !ok || rej.Reason != ReasonDeadline || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("expired waiter: %v", err)
	}
	if waiter.started() || e.Stats().Queued != 0 {
		t.Fatalf("expired work started (%v) or stayed queued (%+v)", waiter.started(), e.Stats())
	}
	if err := holder.result(t); err != nil {
		t.Fatal(err)
	}
}

// A waiter granted a slot after its deadline passed must pass the slot on
// and not start: the "never started" half of deadline-aware admission.
func TestDeadlinePassedAtHandOff(t *testing.T) {
	e := MustExecutor[fifo](WithClock(fakeclock.New(epoch)))
	var wg sync.WaitGroup
	defer wg.Wait()
	holder := start(context.Background(), &wg, e)
	holder.running(t)
	ctx := newExpiringCtx()
	ctx.silent = true // Err says expired but Done stays open: the grant wins the race
	late := start(ctx, &wg, e)
	waitFor(t, "late queued", func() bool { return e.Stats().Queued == 1 })
	next := start(context.Background(), &wg, e)
	waitFor(t, "next queued", func() bool { return e.Stats().Queued == 2 })
	ctx.expire()
	if err := holder.result(t); err != nil {
		t.Fatal(err)
	}
	if err := late.result(t); !errors.Is(err, context.DeadlineExceeded) || late.started() {
		t.Fatalf("late waiter: err %v, started %v; want a deadline rejection, not started", err, late.started())
	}
	next.running(t) // the slot went on to the next waiter
	if err := next.result(t); err != nil {
		t.Fatal(err)
	}
	if s := e.Stats(); s.Active != 0 {
		t.Errorf("slot leaked: %+v", s)
	}
}

func TestDeadlineAlreadyPassed(t *testing.T) {
	e := MustExecutor[one]()
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	err := e.Do(ctx, func(context.Context) error { t.Error("work ran after its deadline"); return nil })
	if rej, ok := AsRejection(err); !ok || rej.Reason != ReasonDeadline {
		t.Fatalf("err = %v, want a deadline rejection", err)
	}
}

func TestWorkGetsCallersDeadline(t *testing.T) {
	e := MustExecutor[one]()
	want := time.Now().Add(time.Hour)
	ctx, cancel := context.WithDeadline(context.Background(), want)
	defer cancel()
	err := e.Do(ctx, func(ctx context.Context) error {
		if got, ok := ctx.Deadline(); !ok || !got.Equal(want) {
			t.Errorf("work's deadline = %v, %v; want the caller's %v", got, ok, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestCanceledWhileQueued(t *testing.T) {
	e := MustExecutor[fifo](WithClock(fakeclock.New(epoch)))
	var wg sync.WaitGroup
	defer wg.Wait()
	holder := start(context.Background(), &wg, e)
	holder.running(t)
	ctx, cancel := context.WithCancel(context.Background())
	waiter := start(ctx, &wg, e)
	waitFor(t, "waiter queued", func() bool { return e.Stats().Queued == 1 })
	cancel()
	err := waiter.result(t)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrRejected) {
		t.Fatalf("canceled waiter: %v, want context.Canceled and not a rejection", err)
	}
	if err := holder.result(t); err != nil {
		t.Fatal(err)
	}
}

func TestPanicReleasesSlot(t *testing.T) {
	e := MustExecutor[one]()
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Errorf("recovered %v, want the work's panic to go on up", p)
			}
		}()
		_ = e.Do(context.Background(), func(context.Context) error { panic("boom") })
	}()
	if s := e.Stats(); s.Active != 0 {
		t.Fatalf("panic leaked a slot: %+v", s)
	}
	wantErr := errors.New("work failed")
	if err := e.Do(context.Background(), func(context.Context) error { return wantErr }); err != wantErr {
		t.Fatalf("Do returned %v, want the work's own error", err)
	}
	if s := e.Stats(); s.Active != 0 {
		t.Fatalf("error leaked a slot: %+v", s)
	}
}

func TestCall(t *testing.T) {
	e := MustExecutor[one]()
	n, err := Call(context.Background(), e, func(context.Context) (int, error) { return 42, nil })
	if n != 42 || err != nil {
		t.Fatalf("Call = %d, %v", n, err)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	holder := start(context.Background(), &wg, e)
	holder.running(t)
	n, err = Call(context.Background(), e, func(context.Context) (int, error) { return 42, nil })
	if n != 0 || !errors.Is(err, ErrRejected) {
		t.Fatalf("Call on a full lane = %d, %v", n, err)
	}
	if err := holder.result(t); err != nil {
		t.Fatal(err)
	}
}

func TestReservedSlotsForCriticalWork(t *testing.T) {
	e := MustExecutor[reserved](WithClock(fakeclock.New(epoch)))
	var wg sync.WaitGroup
	defer wg.Wait()
	crit := WithCritical(context.Background())
	a, b := start(context.Background(), &wg, e), start(context.Background(), &wg, e)
	a.running(t)
	b.running(t)
	// Two of three slots busy: ordinary work queues, critical work runs.
	ordinary := start(context.Background(), &wg, e)
	waitFor(t, "ordinary queued", func() bool { return e.Stats().Queued == 1 })
	c := start(crit, &wg, e)
	c.running(t)
	// All three busy: a critical waiter may jump the ordinary one, since
	// only it may take a slot that would leave the reserve empty.
	c2 := start(crit, &wg, e)
	waitFor(t, "critical queued", func() bool { return e.Stats().Queued == 2 })
	if err := c.result(t); err != nil {
		t.Fatal(err)
	}
	c2.running(t)
	if ordinary.started() {
		t.Fatal("ordinary work took a reserved slot")
	}
	// a finishes: b and c2 still fill the two ordinary slots, so the freed
	// slot is the reserved one and the ordinary waiter keeps waiting.
	if err := a.result(t); err != nil {
		t.Fatal(err)
	}
	if s := e.Stats(); s.Active != 2 || s.Queued != 1 || ordinary.started() {
		t.Fatalf("after a: %+v, ordinary started %v; want 2 active, ordinary still queued", s, ordinary.started())
	}
	if err := b.result(t); err != nil { // now an ordinary slot is free
		t.Fatal(err)
	}
	ordinary.running(t)
	for _, j := range []*job{c2, ordinary} {
		if err := j.result(t); err != nil {
			t.Fatal(err)
		}
	}
	if s := e.Stats(); s.Active != 0 || s.Queued != 0 {
		t.Errorf("after all: %+v", s)
	}
}

// recorder collects an executor's events.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) Observe(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *recorder) transitions() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var s []string
	for _, e := range r.events {
		if e.Kind == EventStateChanged {
			s = append(s, e.To.String())
		}
	}
	return strings.Join(s, ",")
}

func (r *recorder) count(kind EventKind) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e.Kind == kind {
			n++
		}
	}
	return n
}

// TestStateTransitions is the spec's NORMAL → SATURATED → RECOVERING → NORMAL
// lifecycle, with the relapse, driven by a fake clock.
func TestStateTransitions(t *testing.T) {
	clock := fakeclock.New(epoch)
	rec := &recorder{}
	e := MustExecutor[ten](WithClock(clock), WithObserver(rec))
	var wg sync.WaitGroup
	defer wg.Wait()
	var jobs []*job
	fill := func(n int) {
		for range n {
			j := start(context.Background(), &wg, e)
			j.running(t)
			jobs = append(jobs, j)
		}
	}
	drain := func(n int) {
		for range n {
			j := jobs[len(jobs)-1]
			jobs = jobs[:len(jobs)-1]
			if err := j.result(t); err != nil {
				t.Fatal(err)
			}
		}
	}
	expect := func(want State) {
		t.Helper()
		if got := e.State(); got != want {
			t.Fatalf("state = %v with %d active, want %v", got, e.Stats().Active, want)
		}
	}

	fill(9)
	expect(StateNormal) // 90%: busy but not full
	fill(1)
	expect(StateSaturated) // 100% and no queue: full
	drain(4)
	expect(StateSaturated) // 60%: inside the hysteresis band
	drain(1)
	expect(StateRecovering) // 50%: below 60%
	clock.Advance(9 * time.Second)
	expect(StateRecovering)
	fill(1) // back to 60%: the 10 s count restarts
	clock.Advance(5 * time.Second)
	drain(1)
	clock.Advance(9 * time.Second)
	expect(StateRecovering) // only 9 s below 60% since the restart
	clock.Advance(time.Second)
	expect(StateNormal)

	// Relapse. From 50%, full again: SATURATED; back to 50%: RECOVERING;
	// busy but not full (90%): still RECOVERING; full: SATURATED again.
	fill(5)
	expect(StateSaturated)
	drain(5)
	expect(StateRecovering)
	fill(4)
	expect(StateRecovering)
	fill(1)
	expect(StateSaturated)
	drain(len(jobs))
	clock.Advance(10 * time.Second)
	expect(StateNormal)

	want := "SATURATED,RECOVERING,NORMAL,SATURATED,RECOVERING,SATURATED,RECOVERING,NORMAL"
	if got := rec.transitions(); got != want {
		t.Errorf("state events = %s\nwant           %s", got, want)
	}
}

func TestRecoveryTimerFiresWithoutTraffic(t *testing.T) {
	clock := fakeclock.New(epoch)
	rec := &recorder{}
	e := MustExecutor[one](WithClock(clock), WithObserver(rec))
	var wg sync.WaitGroup
	defer wg.Wait()
	j := start(context.Background(), &wg, e)
	j.running(t)
	if err := j.result(t); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	// No call to State or Stats: the event must come from the timer.
	if got := rec.transitions(); got != "SATURATED,RECOVERING,NORMAL" {
		t.Errorf("state events = %s", got)
	}
}

func TestObserverEvents(t *testing.T) {
	clock := fakeclock.New(epoch)
	rec := &recorder{}
	e := MustExecutor[fifo](WithClock(clock), WithObserver(rec))
	if rec.count(EventAttached) != 1 || rec.events[0].Source == nil {
		t.Fatal("no attach event with a stats source")
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	holder := start(context.Background(), &wg, e)
	holder.running(t)
	waiter := start(context.Background(), &wg, e)
	waitFor(t, "waiter queued", func() bool { return e.Stats().Queued == 1 })
	clock.Advance(300 * time.Millisecond)
	if err := holder.result(t); err != nil {
		t.Fatal(err)
	}
	waiter.running(t)
	if err := waiter.result(t); err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	rec.mu.Lock()
	for _, ev := range rec.events {
		if ev.Kind == EventAdmitted {
			waits = append(waits, ev.Wait)
		}
	}
	rec.mu.Unlock()
	if len(waits) != 2 || waits[0] != 0 || waits[1] != 300*time.Millisecond {
		t.Errorf("admitted waits = %v, want [0 300ms]", waits)
	}
}

func TestStringers(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{ReasonQueueFull.String(), "queue_full"}, {ReasonWaitTimeout.String(), "wait_timeout"},
		{ReasonDeadline.String(), "deadline"}, {ReasonSaturated.String(), "saturated"},
		{StateNormal.String(), "NORMAL"}, {StateSaturated.String(), "SATURATED"}, {StateRecovering.String(), "RECOVERING"},
		{PolicyShed.String(), "shed"}, {PolicyThrottle.String(), "throttle"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

func TestObserverFuncAndDeadlineMessage(t *testing.T) {
	var kinds []EventKind
	e := MustExecutor[one](WithObserver(ObserverFunc(func(ev Event) { kinds = append(kinds, ev.Kind) })))
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	err := e.Do(ctx, func(context.Context) error { return nil })
	if want := "the caller's deadline passed before a slot was free"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("message %v lacks %q", err, want)
	}
	if len(kinds) != 2 || kinds[0] != EventAttached || kinds[1] != EventRejected {
		t.Errorf("events %v, want attached then rejected", kinds)
	}
}
