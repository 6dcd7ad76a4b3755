package unboundedqueue

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/ssautil"
)

// A channel used as a lock or a semaphore of tokens: a request takes a
// token by receiving it (tok := <-lock) and gives the same token back by
// sending it (defer func() { lock <- tok }()). The send cannot wait: it
// returns the slot the receive emptied. The receive can: with no select on
// the request's context or a timer, every request that finds the tokens
// taken waits there, as long as the holders take, and the waiting room has
// no bound but the number of requests (watchtower's update lock, held for a
// whole update run by the scheduler or a request).

// checkTokensPerRequest reports, on a request's path, a plain receive of a
// token from a channel every request shares that the function gives back.
func (c *checker) checkTokensPerRequest() {
	if !c.serving || !c.sendsOnChannel() {
		return
	}
	takes, frames := onRequestPath(c, func(recv *ssa.UnOp, fr *requestFrame) bool {
		return recv.Op == token.ARROW && c.sharedChannel(recv.X, fr) && givesBack(recv)
	})
	for _, recv := range takes {
		c.reportTokenTake(recv, frames[recv].entry)
	}
}

// sharedChannel reports whether ch outlives the request, as sharedQueue
// asks of a send's channel.
func (c *checker) sharedChannel(ch ssa.Value, fr *requestFrame) bool {
	key, named, ok := throughFields(ch)
	return ok && named != nil && c.sharedRoot(key, fr)
}

// givesBack reports whether recv's function, or a function literal in it,
// sends the received value back on the channel it came from.
func givesBack(recv *ssa.UnOp) bool {
	fn := recv.Parent()
	for _, f := range append([]*ssa.Function{fn}, fn.AnonFuncs...) {
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if send, ok := instr.(*ssa.Send); ok && returnsToken(send) == ssa.Value(recv) {
					return true
				}
			}
		}
	}
	return false
}

// returnsToken is the receive whose value send puts back on the channel it
// was received from, or nil: the value received (tok := <-ch, tok, ok :=
// <-ch, or a select's case tok := <-ch), directly or captured by a
// function literal (the deferred give-back).
func returnsToken(send *ssa.Send) ssa.Value {
	recv, ch := receiveOf(send.Parent(), send.X)
	if recv == nil || !sameChannel(send.Parent(), ch, send.Chan) {
		return nil
	}
	return recv
}

// receiveOf is the instruction v, in fn, was received by and the channel
// it was received from.
func receiveOf(fn *ssa.Function, v ssa.Value) (ssa.Value, ssa.Value) {
	v = ssautil.CapturedValue(fn, v)
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if cell, ok := load.X.(*ssa.Alloc); ok {
			v = ssautil.StoredOnce(cell) // a variable a literal captures lives in a cell
		}
	}
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.ARROW && !x.CommaOk {
			return x, x.X
		}
	case *ssa.Extract:
		switch t := x.Tuple.(type) {
		case *ssa.UnOp:
			if t.Op == token.ARROW && x.Index == 0 {
				return t, t.X
			}
		case *ssa.Select:
			if ch := selectReceived(t, x.Index); ch != nil {
				return t, ch
			}
		}
	}
	return nil, nil
}

// selectReceived is the channel of the select case whose received value is
// element i of the select's tuple (index, recvOk, then one value for each
// receiving case in order).
func selectReceived(sel *ssa.Select, i int) ssa.Value {
	k := i - 2
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly {
			continue
		}
		if k == 0 {
			return st.Chan
		}
		k--
	}
	return nil
}

// sameChannel reports whether a and b are the same channel variable or
// field (a captured channel is judged by what the literal captured).
func sameChannel(fn *ssa.Function, a, b ssa.Value) bool {
	_, na, okA := throughFields(ssautil.CapturedValue(fn, a))
	_, nb, okB := throughFields(ssautil.CapturedValue(fn, b))
	return okA && okB && na != nil && na == nb
}

func (c *checker) reportTokenTake(recv *ssa.UnOp, entry *ssa.Function) {
	_, named, _ := throughFields(recv.X)
	c.reportPerRequest(recv.Pos(), entry,
		"token taken with no deadline on every request: "+entryName(entry)+" waits here for a token of "+
			named.Name()+", a channel every request shares and this function gives the token back to, with no select on the request's context or a timer; "+
			"while the holders keep the tokens every request waits here, and the waiting room has no bound but the number of requests; "+
			"select on the request's context (or a timeout) and answer 503 or 429 with Retry-After, or skip the work when no token is free (select with default)")
}
