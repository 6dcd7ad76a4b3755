// Package backoffx holds wait helpers other packages call between attempts.
package backoffx

import (
	"context"
	"math/rand"
	"time"
)

// Sleep waits base·2^attempt with full jitter.
func Sleep(attempt int) { // want Sleep:"sleeps\\(growing\\)"
	d := 100 * time.Millisecond << attempt
	time.Sleep(time.Duration(rand.Int63n(int64(d))))
}

// Wait waits for d, whatever it is.
func Wait(d time.Duration) { // want Wait:"sleeps\\(param \\[0\\]\\)"
	time.Sleep(d)
}

// Pause always waits 50 ms.
func Pause() { // want Pause:"sleeps\\(constant\\)"
	time.Sleep(50 * time.Millisecond)
}

// Backoff doubles its delay at every call.
type Backoff struct{ cur time.Duration }

func (b *Backoff) Wait() { // want Wait:"sleeps\\(growing\\)"
	time.Sleep(b.cur)
	b.cur *= 2
}

// Until waits on a timer in a select.
func Until(done <-chan struct{}, d time.Duration) { // want Until:"sleeps\\(param \\[1\\]\\)"
	select {
	case <-done:
	case <-time.After(d):
	}
}

// Double is a pure computation: no fact.
func Double(d time.Duration) time.Duration { return 2 * d }

// SleepCtx waits for d unless d is not positive or ctx ends first.
func SleepCtx(ctx context.Context, d time.Duration) error { // want SleepCtx:"sleeps\\(param \\[1\\]\\)"
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// MaybeWait waits only when asked, through another helper: not a wait.
func MaybeWait(yes bool) {
	if yes {
		Pause()
	}
}
