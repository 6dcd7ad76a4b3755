package bulkhead

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// waitFor polls cond until it holds. The limit is generous on purpose: it is
// a hang detector for a loaded machine, not a timing assertion.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for i := 0; !cond(); i++ {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		if i < 100 {
			runtime.Gosched()
		} else {
			time.Sleep(time.Millisecond)
		}
	}
}

// job is one call of Do whose work blocks until the test lets it go.
type job struct {
	entered chan struct{} // closed when the work starts
	finish  chan struct{} // close to let the work return
	done    chan error    // Do's result
}

// start calls exec.Do(ctx, …) in a goroutine; wg tracks it.
func start(ctx context.Context, wg *sync.WaitGroup, r Runner) *job {
	j := &job{entered: make(chan struct{}), finish: make(chan struct{}), done: make(chan error, 1)}
	wg.Add(1)
	go func() {
		defer wg.Done()
		j.done <- r.Do(ctx, func(context.Context) error {
			close(j.entered)
			<-j.finish
			return nil
		})
	}()
	return j
}

// running waits until the job's work has started.
func (j *job) running(t testing.TB) {
	t.Helper()
	select {
	case <-j.entered:
	case err := <-j.done:
		t.Fatalf("job did not run: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("job never started")
	}
}

// result lets the work finish (if it started) and returns Do's error.
func (j *job) result(t testing.TB) error {
	t.Helper()
	select {
	case <-j.finish:
	default:
		close(j.finish)
	}
	select {
	case err := <-j.done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("job never returned")
		return nil
	}
}

func (j *job) started() bool {
	select {
	case <-j.entered:
		return true
	default:
		return false
	}
}

// expiringCtx is a context whose deadline the test expires by hand, so
// deadline handling is tested without real time passing.
type expiringCtx struct {
	context.Context
	once sync.Once
	ch   chan struct{}
	mu   sync.Mutex
	err  error
	// silent expires Err without closing Done, to force the path where a
	// waiter is granted a slot after its deadline passed.
	silent bool
}

func newExpiringCtx() *expiringCtx {
	return &expiringCtx{Context: context.Background(), ch: make(chan struct{})}
}

func (c *expiringCtx) Done() <-chan struct{} { return c.ch }

func (c *expiringCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *expiringCtx) expire() { c.end(context.DeadlineExceeded) }

func (c *expiringCtx) cancel() { c.end(context.Canceled) }

// end ends the context with err; the first end wins.
func (c *expiringCtx) end(err error) {
	c.mu.Lock()
	if c.err == nil {
		c.err = err
	}
	c.mu.Unlock()
	if !c.silent {
		c.once.Do(func() { close(c.ch) })
	}
}
