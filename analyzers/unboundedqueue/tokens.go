package unboundedqueue

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
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
	recv, ch := receiveOf(send.X, 4)
	if recv == nil || !sameChannel(ch, send.Chan) {
		return nil
	}
	return recv
}

// receiveOf is the instruction v was received by and the channel it
// was received from.
func receiveOf(v ssa.Value, depth int) (ssa.Value, ssa.Value) {
	if depth == 0 {
		return nil, nil
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
	case *ssa.FreeVar:
		if bound := boundTo(x); bound != nil {
			return receiveOf(bound, depth-1)
		}
	}
	if cell := capturedCell(v); cell != nil {
		if stored := onlyStore(cell); stored != nil {
			return receiveOf(stored, depth-1)
		}
	}
	return nil, nil
}

// capturedCell is the variable a load reads when the variable is captured
// by a function literal (go/ssa keeps it in a cell, read through *): the
// cell itself, or what the literal's free variable was bound to.
func capturedCell(v ssa.Value) *ssa.Alloc {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	addr := load.X
	if fv, ok := addr.(*ssa.FreeVar); ok {
		addr = unbound(fv)
	}
	cell, _ := addr.(*ssa.Alloc)
	return cell
}

// onlyStore is the value stored in cell when one store is all it gets.
func onlyStore(cell *ssa.Alloc) ssa.Value {
	var stored ssa.Value
	for _, ref := range *cell.Referrers() {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == cell {
			if stored != nil {
				return nil
			}
			stored = st.Val
		}
	}
	return stored
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

// boundTo is the value a function literal's free variable was bound to
// where the literal was made.
func boundTo(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	parent := fn.Parent()
	if parent == nil {
		return nil
	}
	i := -1
	for j, f := range fn.FreeVars {
		if f == fv {
			i = j
		}
	}
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn && i >= 0 && i < len(mc.Bindings) {
				return mc.Bindings[i]
			}
		}
	}
	return nil
}

// sameChannel reports whether a and b are the same channel variable or
// field (a captured channel is judged by what it was bound to).
func sameChannel(a, b ssa.Value) bool {
	_, na, okA := throughFields(unbound(a))
	_, nb, okB := throughFields(unbound(b))
	return okA && okB && na != nil && na == nb
}

// unbound follows a load of a captured variable to the value it captured.
func unbound(v ssa.Value) ssa.Value {
	for range 4 {
		fv, ok := v.(*ssa.FreeVar)
		if !ok {
			return v
		}
		bound := boundTo(fv)
		if bound == nil {
			return v
		}
		v = bound
	}
	return v
}

func (c *checker) reportTokenTake(recv *ssa.UnOp, entry *ssa.Function) {
	_, named, _ := throughFields(recv.X)
	c.reportPerRequest(recv.Pos(), entry,
		"token taken with no deadline on every request: "+entryName(entry)+" waits here for a token of "+
			named.Name()+", a channel every request shares and this function gives the token back to, with no select on the request's context or a timer; "+
			"while the holders keep the tokens every request waits here, and the waiting room has no bound but the number of requests; "+
			"select on the request's context (or a timeout) and answer 503 or 429 with Retry-After, or skip the work when no token is free (select with default)")
}
