package healthprobe

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// memoized: the probe's call at site is skipped once a result the probe
// keeps says so — a condition before the call reads a field or package
// variable, one branch returns without reaching the call, and the probe
// itself stores to that field or variable. Such a check reaches the
// resource only until its first success (ory's "migrations" checker:
// `if m.migrationStatus != nil && !m.migrationStatus.HasPending() { return
// nil }`, then `m.migrationStatus = status`): a start-up gate, which a slow
// dependency cannot fail once it has passed.
func (c *checker) memoized(fn *ssa.Function, site token.Pos) bool {
	block := c.blockAt(fn, site)
	if block == nil {
		return false
	}
	stored := storedMemos(fn)
	if len(stored) == 0 {
		return false
	}
	for _, b := range fn.Blocks {
		ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok || b == block || reaches(b.Succs[0], block, b) == reaches(b.Succs[1], block, b) {
			continue
		}
		for key := range memosRead(ifInstr.Cond, 6) {
			if stored[key] {
				return true
			}
		}
	}
	return false
}

// memo names a field of a value (the base and the field's index) or a
// package variable.
type memo struct {
	base  ssa.Value
	field int
}

func memoOf(addr ssa.Value) (memo, bool) {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		return memo{variable(a.X), a.Field}, true
	case *ssa.Global:
		return memo{a, -1}, true
	}
	return memo{}, false
}

// storedMemos are the fields and variables fn stores to.
func storedMemos(fn *ssa.Function) map[memo]bool {
	out := map[memo]bool{}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if m, ok := memoOf(st.Addr); ok {
					out[m] = true
				}
			}
		}
	}
	return out
}

// memosRead are the fields and variables v is computed from, through
// comparisons, negations and the receivers and arguments of calls.
func memosRead(v ssa.Value, depth int) map[memo]bool {
	out := map[memo]bool{}
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		if depth == 0 || v == nil {
			return
		}
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op == token.MUL {
				if m, ok := memoOf(x.X); ok {
					out[m] = true
				}
			}
			walk(x.X, depth-1)
		case *ssa.BinOp:
			walk(x.X, depth-1)
			walk(x.Y, depth-1)
		case *ssa.Call:
			for _, arg := range x.Common().Args {
				walk(arg, depth-1)
			}
			walk(x.Common().Value, depth-1)
		case *ssa.Phi:
			for _, e := range x.Edges {
				walk(e, depth-1)
			}
		}
	}
	walk(v, depth)
	return out
}

// variable is the variable a value was loaded from (a captured variable, a
// package variable, a local whose address is taken), so that two loads of
// the same receiver name the same memo; otherwise the value itself.
func variable(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		switch load.X.(type) {
		case *ssa.FreeVar, *ssa.Global, *ssa.Alloc:
			return load.X
		}
	}
	return v
}
