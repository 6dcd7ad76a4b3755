package retrystorm

import (
	"github.com/bhlint/bhlint/internal/ssautil"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// searches reports whether a loop around call is a search over values rather
// than a retry: call is a function known statically that reaches neither the
// network nor a database, and each round hands it a different value —
//   - the value its own previous round returned (the chain walk
//     for { next := errors.Unwrap(err); if next == nil { break }; err = next }):
//     each call moves one link along a finite chain;
//   - a value another call of the loop made afresh (a generate-until-valid
//     loop: name := fake(); if validate(name) == nil { return name }): each
//     call checks a new candidate.
//
// Neither repeats a failing call against a dependency: no load is added to
// anyone when it goes round. A call through an interface or a function value
// may be a client whose network call is not visible, and is never taken to
// be a search; nor is a call that reaches the network or a database, however
// its arguments change.
func (c *checker) searches(l *loop, call *ssa.Call) bool {
	common := call.Common()
	if common.IsInvoke() {
		return l.calledOnChainLink(common, call)
	}
	if common.StaticCallee() == nil || c.networkPath(call) != nil || c.databasePath(call) != nil {
		return false
	}
	return slices.ContainsFunc(common.Args, func(a ssa.Value) bool {
		return l.fedBack(a, call) || l.madeAfresh(a, call)
	})
}

// calledOnChainLink reports whether an interface method is called on the
// error the call itself returned the round before — asserted to the
// interface, or filled from it by errors.As: err = err.(causer).Cause()
// walks an error chain (step-ca's statusCodeFromError). Whatever
// implements the method is the error's own type, not a client: an unknown
// receiver stays a possible client.
func (l *loop) calledOnChainLink(common *ssa.CallCommon, call *ssa.Call) bool {
	recv := ssautil.SameValue(common.Value)
	if ex, ok := recv.(*ssa.Extract); ok && ex.Index == 0 {
		recv = ex.Tuple
	}
	switch r := recv.(type) {
	case *ssa.TypeAssert:
		return l.fedBack(r.X, call)
	case *ssa.UnOp:
		if alloc, ok := r.X.(*ssa.Alloc); ok {
			return slices.ContainsFunc(l.filledByAs(alloc), func(v ssa.Value) bool { return l.fedBack(v, call) })
		}
	}
	return false
}

// filledByAs is the errors each errors.As in the loop fills target from.
func (l *loop) filledByAs(target *ssa.Alloc) []ssa.Value {
	var from []ssa.Value
	for _, ref := range ssautil.Referrers(target) {
		uses := []ssa.Instruction{ref}
		if v, ok := ref.(ssa.Value); ok {
			uses = append(uses, ssautil.Referrers(v)...) // &c made into an interface for errors.As
		}
		for _, use := range uses {
			call, ok := use.(*ssa.Call)
			if ok && l.blocks[call.Block()] && len(call.Common().Args) == 2 && inspectsError(call.Common()) && ssautil.SameValue(call.Common().Args[1]) == target {
				from = append(from, call.Common().Args[0])
			}
		}
	}
	return from
}

// fedBack reports whether v is a value carried round the loop (a phi at its
// head) that the call's own result feeds: err = errors.Unwrap(err).
func (l *loop) fedBack(v ssa.Value, call *ssa.Call) bool {
	phi, ok := ssautil.SameValue(v).(*ssa.Phi)
	if !ok || phi.Block() != l.header {
		return false
	}
	return slices.ContainsFunc(phi.Edges, func(e ssa.Value) bool {
		e = ssautil.SameValue(e)
		if ex, ok := e.(*ssa.Extract); ok {
			e = ex.Tuple
		}
		return e == call
	})
}

// madeAfresh reports whether v is computed in the loop from the result of a
// call other than call itself: a new value each round.
func (l *loop) madeAfresh(v ssa.Value, call *ssa.Call) bool {
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value) bool
	walk = func(v ssa.Value) bool {
		if v == nil || seen[v] || !l.inLoop(v) {
			return false
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Call:
			return v != call
		case *ssa.Phi:
			return false // a value carried round: not made in this round
		}
		return slices.ContainsFunc(operands(v), walk)
	}
	return walk(v)
}
