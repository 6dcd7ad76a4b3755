package retries

import (
	"context"
	"time"
)

// Clock is injected so that tests can fake time, as jmhodges/clock's and
// benbjohnson/clock's are: its real implementation sleeps.
type Clock interface {
	Now() time.Time
	Sleep(d time.Duration)
	After(d time.Duration) <-chan time.Time
}

// Limiter is an interface whose method takes a duration and waits for
// nothing: not a clock.
type Limiter interface {
	SetTimeout(d time.Duration) error
}

type Purger struct {
	clk   Clock
	lim   Limiter
	tries int
}

// backoffFor grows with the attempt, as boulder's core.RetryBackoff does.
func backoffFor(attempt int) time.Duration {
	return time.Duration(attempt*attempt) * 100 * time.Millisecond
}

// Purge backs off through the clock, bounded by its attempts: silent.
func (p *Purger) Purge(ctx context.Context) error {
	var err error
	for i := range p.tries + 1 {
		p.clk.Sleep(backoffFor(i))
		if err = charge(ctx); err == nil {
			return nil
		}
	}
	return err
}

// PurgeAfter waits on the clock's timer, growing: silent.
func (p *Purger) PurgeAfter(ctx context.Context) error {
	var err error
	for i := 0; i < p.tries; i++ {
		if err = charge(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.clk.After(backoffFor(i)):
		}
	}
	return err
}

// PurgeInStep sleeps a constant through the clock: every client retries in
// step.
func (p *Purger) PurgeInStep(ctx context.Context) error {
	var err error
	for i := 0; i < p.tries; i++ { // want `waiting a constant 10ms between attempts`
		if err = charge(ctx); err == nil {
			return nil
		}
		p.clk.Sleep(10 * time.Millisecond)
	}
	return err
}

// PurgeNoPause sets a timeout between attempts, which waits for nothing.
func (p *Purger) PurgeNoPause(ctx context.Context) error {
	var err error
	for i := 0; i < p.tries; i++ { // want `with no pause between attempts`
		if err = charge(ctx); err == nil {
			return nil
		}
		_ = p.lim.SetTimeout(time.Second)
	}
	return err
}
