package retries

import (
	"context"
	"time"

	"github.com/failsafe-go/failsafe-go"

	"backoffx"
)

// ---- waits in other packages and behind func-typed fields ----

// helperGrowing waits through a backoff helper in another package.
func helperGrowing(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = charge(ctx); err == nil {
			return nil
		}
		backoffx.Sleep(attempt)
	}
	return err
}

// helperConstant waits a constant 50 ms in another package.
func helperConstant(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `waiting a constant time between attempts with no backoff or jitter`
		if err = charge(ctx); err == nil {
			return nil
		}
		backoffx.Pause()
	}
	return err
}

// helperParamConstant passes the same duration every time.
func helperParamConstant(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `waiting a constant 50ms between attempts`
		if err = charge(ctx); err == nil {
			return nil
		}
		backoffx.Wait(50 * time.Millisecond)
	}
	return err
}

// helperParamGrowing passes a doubling duration.
func helperParamGrowing(ctx context.Context) error {
	var err error
	d := 50 * time.Millisecond
	for attempt := 0; attempt < 3; attempt++ {
		if err = charge(ctx); err == nil {
			return nil
		}
		backoffx.Wait(d)
		d = backoffx.Double(d)
	}
	return err
}

// helperMethodGrowing waits with a stateful backoff from another package.
func helperMethodGrowing(ctx context.Context, b *backoffx.Backoff) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = charge(ctx); err == nil {
			return nil
		}
		b.Wait()
	}
	return err
}

// localWait waits in this package.
func localWait(d time.Duration) { // want localWait:"sleeps\\(param \\[0\\]\\)"
	time.Sleep(d)
}

// Retrier sleeps through a func-typed field, so tests can fake time.
type Retrier struct {
	sleep func(time.Duration)
	tries int
}

func NewRetrier() *Retrier { return &Retrier{sleep: localWait, tries: 3} }

// Do backs off through the field: resolved to localWait.
func (r *Retrier) Do(ctx context.Context) error {
	var err error
	d := 100 * time.Millisecond
	for i := 0; i < r.tries; i++ {
		if err = charge(ctx); err == nil {
			return nil
		}
		r.sleep(d)
		d *= 2
	}
	return err
}

// DoInStep waits a constant time through the field.
func (r *Retrier) DoInStep(ctx context.Context) error {
	var err error
	for i := 0; i < r.tries; i++ { // want `waiting a constant 10ms between attempts`
		if err = charge(ctx); err == nil {
			return nil
		}
		r.sleep(10 * time.Millisecond)
	}
	return err
}

// injected takes its sleep function from the caller: taken as a wait.
func injected(ctx context.Context, sleep func(time.Duration)) error {
	var err error
	d := time.Millisecond
	for i := 0; i < 3; i++ {
		if err = charge(ctx); err == nil {
			return nil
		}
		sleep(d)
		d *= 2
	}
	return err
}

// quoteWithPolicy leaves retries to a failsafe-go policy, which waits
// between attempts: the generic failsafe.Get is matched by its origin.
func quoteWithPolicy(ctx context.Context, p failsafe.Policy[int64], c *TaxClient) (int64, error) { // want quoteWithPolicy:"sleeps\\(growing\\)"
	return failsafe.Get(func() (int64, error) { return c.Quote(ctx, "o-1") }, p)
}

// helperSleepCtx waits through a context-aware helper that may return early.
func helperSleepCtx(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `waiting a constant 250ms between attempts`
		if err = charge(ctx); err == nil {
			return nil
		}
		if err := backoffx.SleepCtx(ctx, 250*time.Millisecond); err != nil {
			return err
		}
	}
	return err
}

// helperMaybeWait calls a helper that waits only sometimes: no pause seen.
func helperMaybeWait(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `with no pause between attempts`
		if err = charge(ctx); err == nil {
			return nil
		}
		backoffx.MaybeWait(attempt > 0)
	}
	return err
}
