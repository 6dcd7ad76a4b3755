package retrystorm

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// statusPoll reports whether the loop goes round only on a sentinel error
// of its own package (errors.Is(err, errNextLoop), err == errPending) that
// the retried function returns only after its network call succeeded, and
// after a pause: the server answered "not yet" (a task still pending), and
// the loop asks again later. That is a poll of a status, not a retry of a
// failure: a failed call returns another error, which leaves the loop.
// oneapi's replicate adaptor polls a prediction so, every 3 s, within the
// request's context.
func (c *checker) statusPoll(r *retry) bool {
	sentinel := c.onlySentinelGoesRound(r)
	if sentinel == nil {
		return false
	}
	callee := r.call.Common().StaticCallee()
	if callee == nil || callee.Pkg != r.loop.fn.Pkg {
		return false
	}
	returned := false
	for _, b := range callee.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 || loadedGlobal(returnedValue(b, ret.Results[len(ret.Results)-1])) != sentinel {
			continue
		}
		if !c.afterNetworkSuccess(callee, b) || !c.pausedBefore(r.loop, b) {
			return false
		}
		returned = true
	}
	return returned
}

// onlySentinelGoesRound finds the package-level error variable the loop
// tests the call's error against on its way round, when every other error
// leaves the loop: the branch that does not match reaches no way back to
// the loop's head.
func (c *checker) onlySentinelGoesRound(r *retry) *ssa.Global {
	l := r.loop
	blocks := []*ssa.BasicBlock{r.errCheck.Block()} // the check itself may be the test
	for b := range l.reach(r.fail) {
		blocks = append(blocks, b)
	}
	for _, b := range blocks {
		cond := branch(b)
		if cond == nil {
			continue
		}
		g, matchIdx := sentinelTest(cond.Cond)
		if g == nil || g.Pkg != l.fn.Pkg {
			continue
		}
		if v, _ := errCondition(cond.Cond); v == nil || !slices.Contains(errorCalls(v), r.errCall) {
			continue
		}
		if l.goesRound(b.Succs[1-matchIdx]) {
			continue
		}
		if b == r.errCheck.Block() || !l.roundsWithout(r.fail, b, matchIdx) {
			return g
		}
	}
	return nil
}

// roundsWithout reports whether some path from b through the loop comes
// back to its head without taking the edge from cut to its successor
// cutIdx: a way round the sentinel's match does not account for (if
// isTimeout(err) { continue } before it).
func (l *loop) roundsWithout(from, cut *ssa.BasicBlock, cutIdx int) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == l.header {
			return true
		}
		if seen[b] || !l.blocks[b] {
			continue
		}
		seen[b] = true
		for i, s := range b.Succs {
			if b != cut || i != cutIdx {
				stack = append(stack, s)
			}
		}
	}
	return false
}

// sentinelTest reads errors.Is(err, g) and err == g (and their negations)
// where g is a package variable: g, and the successor taken on a match.
func sentinelTest(cond ssa.Value) (*ssa.Global, int) {
	switch cond := cond.(type) {
	case *ssa.UnOp:
		if cond.Op == token.NOT {
			if g, idx := sentinelTest(cond.X); g != nil {
				return g, 1 - idx
			}
		}
	case *ssa.BinOp:
		if cond.Op != token.EQL && cond.Op != token.NEQ {
			return nil, 0
		}
		g := loadedGlobal(cond.X)
		if g == nil {
			g = loadedGlobal(cond.Y)
		}
		if g == nil {
			return nil, 0
		}
		if cond.Op == token.EQL {
			return g, 0
		}
		return g, 1
	case *ssa.Call:
		callee := cond.Common().StaticCallee()
		if callee == nil || len(cond.Common().Args) != 2 {
			return nil, 0
		}
		if fn, ok := callee.Object().(*types.Func); ok && fn.Name() == "Is" && catalog.ErrorMatchers.Has(fn) {
			if g := loadedGlobal(cond.Common().Args[1]); g != nil {
				return g, 0
			}
		}
	}
	return nil, 0
}

// returnedValue is the value a return in block b gives back: v, or, in a
// function with a defer (whose results go through a slot the deferred
// calls may change), the value stored to that slot earlier in b.
func returnedValue(b *ssa.BasicBlock, v ssa.Value) ssa.Value {
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		if st, ok := b.Instrs[i].(*ssa.Store); ok && st.Addr == slot {
			return st.Val
		}
	}
	return v
}

// loadedGlobal is the package variable v loads, through conversions to an
// interface, or nil.
func loadedGlobal(v ssa.Value) *ssa.Global {
	load, ok := ssautil.SameValue(v).(*ssa.UnOp)
	if !ok {
		return nil
	}
	g, _ := unwrapLoad(load).(*ssa.Global)
	return g
}

// branch is the if that ends b, or nil.
func branch(b *ssa.BasicBlock) *ssa.If {
	cond, _ := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	return cond
}

// goesRound reports whether some path from b, inside the loop, comes back
// to its head.
func (l *loop) goesRound(b *ssa.BasicBlock) bool {
	if b == l.header {
		return true
	}
	for x := range l.reach(b) {
		if slices.Contains(x.Succs, l.header) {
			return true
		}
	}
	return false
}

// afterNetworkSuccess reports whether block b of fn is reached only after
// every network call of fn on the way to it succeeded: each call in a block
// that dominates b has a nil check of its error whose success dominates b,
// and there is at least one. A sentinel returned when the last request
// failed (a token fetched, then the GET failed) is a retry of that failure.
func (c *checker) afterNetworkSuccess(fn *ssa.Function, b *ssa.BasicBlock) bool {
	calls := 0
	for _, x := range fn.Blocks {
		if !x.Dominates(b) {
			continue
		}
		for _, instr := range x.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || c.networkPath(call) == nil {
				continue
			}
			if !succeededBefore(fn, call, b) {
				return false
			}
			calls++
		}
	}
	return calls > 0
}

// succeededBefore reports whether a nil check of call's error, the way it
// takes when the error is nil, dominates b.
func succeededBefore(fn *ssa.Function, call *ssa.Call, b *ssa.BasicBlock) bool {
	for _, x := range fn.Blocks {
		cond := branch(x)
		if cond == nil {
			continue
		}
		v, failIdx := nilCheck(cond.Cond)
		if v != nil && slices.Contains(errorCalls(v), call) && x.Succs[1-failIdx].Dominates(b) {
			return true
		}
	}
	return false
}

// pausedBefore reports whether a pause (a sleep, a timer, a backoff) runs
// in b or in a block that dominates it.
func (c *checker) pausedBefore(l *loop, b *ssa.BasicBlock) bool {
	for _, x := range b.Parent().Blocks {
		if !x.Dominates(b) {
			continue
		}
		for _, instr := range x.Instrs {
			if p, _ := c.instrPause(instr, l.varies); p != noPause {
				return true
			}
		}
	}
	return false
}

// calleeObject is the function a static callee declares, if any.
func calleeObject(callee *ssa.Function) (*types.Func, bool) {
	if callee == nil {
		return nil, false
	}
	fn, ok := origin(callee).Object().(*types.Func)
	return fn, ok
}
