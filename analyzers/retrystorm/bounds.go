package retrystorm

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// boundKind is what can end the loop other than the call's success.
type boundKind struct {
	count, deadline, other bool
	// clock: an exit tests the time itself (time.Since(start) > 10*time.Second),
	// a deadline the loop set, not a context that may only be cancelled.
	clock bool
}

func (b boundKind) any() bool { return b.count || b.deadline || b.other }

func (c *checker) boundsOf(r *retry) boundKind {
	var bk boundKind
	for blk := range r.loop.blocks {
		ifInstr, ok := blk.Instrs[len(blk.Instrs)-1].(*ssa.If)
		if !ok || (r.loop.stays(blk.Succs[0]) && r.loop.stays(blk.Succs[1])) {
			continue
		}
		c.classifyExit(r, ifInstr.Cond, &bk)
	}
	return bk
}

// classifyExit records what an exit condition of the loop tests.
func (c *checker) classifyExit(r *retry, cond ssa.Value, bk *boundKind) {
	if r.leavesOnRepeat(cond) {
		bk.other = true // a failure that persists ends the loop on its second attempt
		return
	}
	var fromCall, counter, deadline, clock, other bool
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if v == nil || seen[v] {
			return
		}
		seen[v] = true
		if !r.loop.inLoop(v) {
			_, isConst := v.(*ssa.Const)
			_, isParam := v.(*ssa.Parameter)
			switch {
			case isConst || r.loop.invariant[v]:
				// the same every round: a recursion's parameter passed on unchanged
			case r.loop.recursion != nil && isParam && isInteger(v.Type()):
				counter = true // passed on changed: n-1, attempt+1
			default:
				other = true // a flag or limit set before the loop
			}
			return
		}
		switch v := v.(type) {
		case *ssa.Call:
			if r.isOwnResult(v) {
				fromCall = true
				return
			}
			if isDeadlineCall(v.Common()) {
				deadline = true
				clock = clock || isClockCall(v.Common()) || c.errOfDeadlineContext(v.Common())
				return
			}
			if inspectsError(v.Common()) || isResultAccessor(v.Common()) {
				for _, a := range v.Common().Args {
					walk(a)
				}
				return
			}
			other = true // a retry policy's decision: shouldRetry(err), budget.Allow()
			return
		case *ssa.Select:
			deadline = true
			clock = clock || c.selectsDeadline(r.loop, v)
			return
		case *ssa.Phi:
			if v.Block() == r.loop.header && isInteger(v.Type()) {
				counter = true
				return
			}
			if calls := errorCalls(v); slices.Contains(calls, r.call) || slices.Contains(calls, r.errCall) {
				fromCall = true
				return
			}
		case *ssa.Extract:
			if call, ok := v.Tuple.(*ssa.Call); ok && r.isOwnResult(call) {
				fromCall = true
				return
			}
		}
		for _, op := range operands(v) {
			walk(op)
		}
	}
	walk(cond)
	switch {
	case counter:
		bk.count = true
	case deadline:
		bk.deadline = true
		bk.clock = bk.clock || clock
	case other && !fromCall:
		bk.other = true
	}
}

// stays reports whether a branch to b goes on with the loop: b is in it
// and does not end the program (log.Fatal when a start-up deadline passes
// leaves the loop as surely as a return).
func (l *loop) stays(b *ssa.BasicBlock) bool {
	return l.blocks[b] && !slices.ContainsFunc(b.Instrs, noReturn)
}

// inspectsError reports calls that only look at an error (errors.Is,
// errors.As, err.Error(), a Temporary() method, gRPC's status.Code): a
// condition made of them is still the retried call's own result.
func inspectsError(common *ssa.CallCommon) bool {
	if common.IsInvoke() {
		return ssautil.IsError(common.Value.Type()) || common.Method.Name() == "Temporary" || common.Method.Name() == "Timeout"
	}
	callee := common.StaticCallee()
	if callee == nil {
		return false
	}
	fn, _ := origin(callee).Object().(*types.Func)
	return fn != nil && fn.Pkg() != nil && (fn.Pkg().Path() == "errors" || catalog.ErrorMatchers.Has(fn) || catalog.Key(fn) == catalog.GRPCStatusCode)
}

// isDeadlineCall reports calls that tell time or a context's state:
// ctx.Err(), time.Since, time.Now().After(deadline)…
func isDeadlineCall(common *ssa.CallCommon) bool {
	var fn *types.Func
	if common.IsInvoke() {
		fn = common.Method
	} else if callee := common.StaticCallee(); callee != nil {
		fn, _ = origin(callee).Object().(*types.Func)
	}
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	return fn.Pkg().Path() == "time" || fn.Pkg().Path() == "context"
}

// isClockCall reports calls that tell the time (time.Since, time.Until,
// time.Now, a Time's After or Before), as opposed to a context's state.
func isClockCall(common *ssa.CallCommon) bool {
	callee := common.StaticCallee()
	if common.IsInvoke() || callee == nil {
		return false
	}
	fn, _ := origin(callee).Object().(*types.Func)
	return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "time"
}

// pauseOf returns how the loop waits between attempts, and where.
func (c *checker) pauseOf(l *loop) (pause, ssa.Instruction) {
	best, where := noPause, ssa.Instruction(nil)
	for _, b := range l.fn.Blocks {
		if !l.blocks[b] {
			continue
		}
		for _, instr := range b.Instrs {
			p, _ := c.instrPause(instr, l.varies)
			if p > best {
				best, where = p, instr
			}
		}
	}
	return best, where
}

// leavesOnRepeat reports whether cond compares what this round's call
// returned with what the round before kept (prevErr == err.Error(): a
// value carried round the loop, a phi at its head, fed by the call's result):
// the loop leaves as soon as the same failure comes back twice, so a
// failure that persists is tried twice, not for ever.
func (r *retry) leavesOnRepeat(cond ssa.Value) bool {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || (bin.Op != token.EQL && bin.Op != token.NEQ) {
		return false
	}
	for _, pair := range [][2]ssa.Value{{bin.X, bin.Y}, {bin.Y, bin.X}} {
		phi, ok := pair[0].(*ssa.Phi)
		if !ok || phi.Block() != r.loop.header || !r.fromOwnResult(pair[1]) {
			continue
		}
		if slices.ContainsFunc(phi.Edges, r.fromOwnResult) {
			return true
		}
	}
	return false
}

// fromOwnResult reports whether v is computed in the loop from the retried
// call's result (its error, err.Error(), a field of it).
func (r *retry) fromOwnResult(v ssa.Value) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if v == nil || seen[v] || !r.loop.inLoop(v) {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Phi:
			return false // carried from another round
		case *ssa.Call:
			if r.isOwnResult(v) {
				return true
			}
			if v.Common().IsInvoke() && walk(v.Common().Value) {
				return true
			}
			return slices.ContainsFunc(v.Common().Args, walk)
		case *ssa.Extract:
			if call, ok := v.Tuple.(*ssa.Call); ok && r.isOwnResult(call) {
				return true
			}
		}
		return slices.ContainsFunc(operands(v), walk)
	}
	return walk(v)
}
