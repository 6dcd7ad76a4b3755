package gate

import (
	"context"
	"time"

	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// Dial gets the holder of t a connection with open, which may have to open
// one, waiting for it until deadline (the acquire timeout) or until ctx
// ends, whichever comes first. Both lane pools open their connections
// through it, so a slow dial means the same in lanedb and lanepgx.
//
// open runs in a goroutine with a context that neither deadline nor ctx
// ends: a dial the caller gave up on goes on, bounded by open's own
// connect timeout, so that on a network where connecting takes longer
// than the acquire timeout the pool still gets connections. Until it ends
// the slot stays taken (Stats.Pending: the session may already exist on the
// server); then its result goes to late, which gives a connection to the
// pool for the next caller (or closes one nobody may take), and the slot is
// released.
//
// gaveUp reports that the caller gave up: t now belongs to the dial and the
// caller must not release it; err is then the acquire's error, built with
// Fail. Otherwise the caller owns t, as after Admit, and err is open's.
func Dial[C any](ctx context.Context, t *Ticket, deadline time.Time, open func(context.Context) (C, error), late func(C, error)) (c C, gaveUp bool, err error) {
	type result struct {
		c   C
		err error
	}
	res := make(chan result, 1)
	go func() {
		c, err := open(context.WithoutCancel(ctx))
		res <- result{c, err}
	}()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	var reason lanepool.Reason
	select {
	case r := <-res:
		return r.c, false, r.err
	case <-ctx.Done():
		err = ctx.Err()
		reason = ctxReason(err)
	case <-timer.C:
		reason = lanepool.ReasonTimeout
	}
	g := t.g
	go func() {
		r := <-res
		late(r.c, r.err)
		t.Release()
	}()
	return c, true, g.failDialing(reason, time.Since(t.start), err)
}

// failDialing is Fail for an acquire whose caller gave up while its
// connection was being opened: the error says so rather than blaming
// connections in use.
func (g *Gate) failDialing(reason lanepool.Reason, waited time.Duration, cause error) error {
	err := g.fail(reason, waited, cause)
	err.(*lanepool.AcquireError).Dialing = true
	return err
}
