package retries

import (
	"context"
	"math/rand"
	"time"
)

// uploadParts' workers try each part three times back to back; the error
// lives in the enclosing function's variable, which the closure writes and
// reads back.
func uploadParts(ctx context.Context, parts int) error {
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range parts {
			for retry := 0; retry < 3; retry++ { // want `this loop retries retries.charge .* with no pause between attempts`
				if err = charge(ctx); err == nil {
					break
				}
			}
		}
	}()
	<-done
	return err
}

// ---- trap: must stay silent ----

// uploadPartsPaced keeps its error the same way, but backs off with jitter
// between its three attempts. Silent.
func uploadPartsPaced(ctx context.Context, parts int) error {
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range parts {
			delay := 50 * time.Millisecond
			for retry := 0; retry < 3; retry++ {
				if err = charge(ctx); err == nil {
					break
				}
				time.Sleep(delay + time.Duration(rand.Int63n(int64(delay))))
				delay *= 2
			}
		}
	}()
	<-done
	return err
}
