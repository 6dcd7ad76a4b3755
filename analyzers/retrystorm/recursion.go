package retrystorm

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/bhlint/bhlint/internal/ssautil"
)

// Recursion is a loop: a function that calls itself again when a call of
// its fails (statping's Connect sleeping 5s and returning Connect(cfg) on a
// database error, gotenberg's Pdf converting again on a core dump) retries
// that call as a for loop would. Each self-call makes a pseudo-loop: its
// body is every block from which the self-call can be reached, its head the
// function's entry, and leaving it is returning without calling itself. A
// parameter the self-call passes on unchanged is the same in every round:
// testing it (if retry { … }) bounds nothing. One it passes changed (n-1,
// attempt+1) is the recursion's counter. One it passes the failed call's
// own error in, when the call reads that parameter, feeds each round's
// failure to the next round's call: kratos's WriteFlowError(…, err) calls
// PrepareReplacementForExpiredFlow(…, err) and, when that fails, writes its
// error with WriteFlowError(…, inner), whose call is handed inner and does
// something else with it. That is the error being handled, a different
// call each round, as a cursor carried round a loop makes one.

// recursions are the pseudo-loops of fn's calls of itself.
func recursions(fn *ssa.Function) []*loop {
	var out []*loop
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || call.Common().StaticCallee() != fn {
				continue
			}
			l := &loop{fn: fn, header: fn.Blocks[0], blocks: map[*ssa.BasicBlock]bool{}, recursion: call, invariant: map[ssa.Value]bool{}}
			stack := []*ssa.BasicBlock{b}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if !l.blocks[x] {
					l.blocks[x] = true
					stack = append(stack, x.Preds...)
				}
			}
			for i, p := range fn.Params {
				if i < len(call.Common().Args) && passedOn(call.Common().Args[i], p) {
					l.invariant[p] = true
				}
			}
			out = append(out, l)
		}
	}
	return out
}

// feedsBack reports whether the recursion hands the call of common its own
// result in the next round: an argument of the call is a parameter that the
// self-call is given the call's result (its error) for.
func (l *loop) feedsBack(common *ssa.CallCommon) bool {
	if l.recursion == nil {
		return false
	}
	self := l.recursion.Common().Args
	for i, p := range l.fn.Params {
		if i >= len(self) || l.invariant[p] || !slices.Contains(common.Args, ssa.Value(p)) {
			continue
		}
		if ex, ok := self[i].(*ssa.Extract); ok {
			if call, ok := ex.Tuple.(*ssa.Call); ok && &call.Call == common {
				return true
			}
		}
	}
	return false
}

// passedOn reports whether arg is the parameter p itself: p, or a load of
// the variable a function literal's capture spilled p into (new T (p);
// *t0 = p), written nowhere else.
func passedOn(arg ssa.Value, p *ssa.Parameter) bool {
	if arg == p {
		return true
	}
	load, ok := arg.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	alloc, ok := load.X.(*ssa.Alloc)
	if !ok {
		return false
	}
	spilled := false
	for _, ref := range ssautil.Referrers(alloc) {
		if st, ok := ref.(*ssa.Store); ok && st.Addr == alloc {
			if st.Val != p {
				return false
			}
			spilled = true
		}
	}
	return spilled
}

// spills reports whether st, in a recursion's pseudo-loop, is the entry's
// spill of a parameter a function literal captures: written once per call,
// with the value the round was given, not one that changes within it.
func (l *loop) spills(st *ssa.Store) bool {
	_, isParam := st.Val.(*ssa.Parameter)
	return l.recursion != nil && isParam
}

// callsItself reports, from the syntax, whether fd's body calls fd: a
// function that may retry by recursion.
func callsItself(info *types.Info, fd *ast.FuncDecl) bool {
	self := info.Defs[fd.Name]
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && self != nil && typeutil.Callee(info, call) == self {
			found = true
		}
		return !found
	})
	return found
}

// hasSelfCall is callsItself in SSA.
func hasSelfCall(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(*ssa.Call); ok && call.Common().StaticCallee() == fn {
				return true
			}
		}
	}
	return false
}
