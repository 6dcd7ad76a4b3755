package retries

import (
	"context"
	"log"
	"net"
	"net/http"
	"time"
)

// Readiness polls that a deadline ends: a context with a timeout, or a
// timer that fires once. They make a known number of attempts.

// pollUntilTimeout derives its own deadline and polls every 500ms until
// it passes. Silent.
func pollUntilTimeout(parent context.Context, url string) error { // want pollUntilTimeout:"sleeps\\(constant\\)"
	ctx, cancel := context.WithTimeout(parent, 10*time.Second)
	defer cancel()
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			resp, err := http.Get(url)
			if err != nil {
				continue
			}
			resp.Body.Close()
			return nil
		}
	}
}

type instance struct{ addr string }

// start gives waitForReady a context with a timeout: its only caller.
func (in *instance) start(ctx context.Context) error { // want start:"sleeps\\(constant\\)"
	waitCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	return in.waitForReady(waitCtx)
}

// waitForReady polls with a ticker until its context's deadline: every
// call in the package passes one. Silent.
func (in *instance) waitForReady(ctx context.Context) error { // want waitForReady:"sleeps\\(constant\\)"
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			c, err := net.Dial("tcp", in.addr)
			if err != nil {
				continue
			}
			return c.Close()
		}
	}
}

// dialUntilStartTimeout gives up (and ends the program) when a timer made
// before the loop fires. Silent.
func dialUntilStartTimeout(addr string) { // want dialUntilStartTimeout:"sleeps\\(constant\\)"
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	to := time.NewTimer(30 * time.Second)
	defer to.Stop()
	for {
		select {
		case <-to.C:
			log.Fatal("failed to start after 30 seconds")
		case <-t.C:
			c, err := net.Dial("tcp", addr)
			if err != nil {
				continue
			}
			_ = c.Close()
			return
		}
	}
}

// dialUntilAfter: time.After taken once, before the loop. Silent.
func dialUntilAfter(addr string) error {
	deadline := time.After(20 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c.Close()
		}
		select {
		case <-deadline:
			return err
		case <-time.After(time.Second):
		}
	}
}

// pollWithErrCheck tests ctx.Err() of a context with a deadline. Silent.
func pollWithErrCheck(addr string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	for ctx.Err() == nil {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c.Close()
		}
		time.Sleep(time.Second)
	}
	return ctx.Err()
}

// ---- still reported ----

// redialUntilCancelled: cancellation with no deadline may come only at
// shutdown.
func redialUntilCancelled(addr string) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for { // want `this loop retries net.Dial when it fails waiting a constant time between attempts with no backoff or jitter`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

// watchUntilStopped is called once with a deadline and once without one:
// the context it is handed may never end.
func watchUntilStopped(ctx context.Context, addr string) error { // want watchUntilStopped:"sleeps\\(constant\\)"
	for { // want `this loop retries net.Dial when it fails waiting a constant time between attempts with no backoff or jitter`
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
			c, err := net.Dial("tcp", addr)
			if err != nil {
				continue
			}
			return c.Close()
		}
	}
}

func watchBoth(addr string) { // want watchBoth:"sleeps\\(constant\\)"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = watchUntilStopped(ctx, addr)
	_ = watchUntilStopped(context.Background(), addr)
}

// pollHandedOn is called with a deadline, but it is also passed on as a
// value: who else calls it is not known.
func pollHandedOn(ctx context.Context, addr string) error { // want pollHandedOn:"sleeps\\(constant\\)"
	for { // want `this loop retries net.Dial when it fails waiting a constant time between attempts with no backoff or jitter`
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
			c, err := net.Dial("tcp", addr)
			if err != nil {
				continue
			}
			return c.Close()
		}
	}
}

func runPoll(addr string, poll func(context.Context, string) error) { // want runPoll:"sleeps\\(constant\\)"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = pollHandedOn(ctx, addr)
	_ = poll(context.Background(), addr)
}

func usePoll(addr string) { runPoll(addr, pollHandedOn) } // want usePoll:"sleeps\\(constant\\)"

// timerReset is a timer re-armed every round: a pause, not a deadline.
func timerReset(addr string) error {
	t := time.NewTimer(time.Second)
	for { // want `this loop retries net.Dial when it fails with no bound on attempts, waiting a constant`
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c.Close()
		}
		select {
		case <-t.C:
			t.Reset(time.Second)
		}
	}
}
