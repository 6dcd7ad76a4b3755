package healthprobe

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// A pool or client opened for the probe alone is no shared failure
// domain: request traffic does not wait for its connections, and the probe
// does not wait for theirs. These functions tell it from a shared one, in
// this package only (escape policy in doc.go).

// varIndex lists, for the package's variables and fields, the functions
// that read them and the values stored in them.
type varIndex struct {
	reads  map[*types.Var][]varRead
	stores map[*types.Var][]ssa.Value
	own    map[*types.Var]bool // ownVar's answers
}

type varRead struct {
	fn  *ssa.Function
	val ssa.Value
}

func indexVars(funcs []*ssa.Function) *varIndex {
	ix := &varIndex{reads: map[*types.Var][]varRead{}, stores: map[*types.Var][]ssa.Value{}, own: map[*types.Var]bool{}}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.UnOp:
					if x.Op == token.MUL {
						if v, _ := varOf(x.X); v != nil {
							ix.reads[v] = append(ix.reads[v], varRead{fn, x})
						}
					}
				case *ssa.Field:
					if v, _ := varOf(x); v != nil {
						ix.reads[v] = append(ix.reads[v], varRead{fn, x})
					}
				case *ssa.Store:
					if v, _ := varOf(x.Addr); v != nil {
						ix.stores[v] = append(ix.stores[v], x.Val)
					}
				}
			}
		}
	}
	return ix
}

// ownVar: an unexported variable or field of this package, set only to
// pools or clients opened here for it, and read only by the probes' code
// (or to close it, read its statistics).
func (c *checker) ownVar(v *types.Var) bool {
	own, ok := c.vars.own[v]
	if !ok {
		own = c.decideOwnVar(v)
		c.vars.own[v] = own
	}
	return own
}

func (c *checker) decideOwnVar(v *types.Var) bool {
	if v.Exported() || v.Pkg() != c.pass.Pkg || len(c.vars.stores[v]) == 0 {
		return false
	}
	for _, val := range c.vars.stores[v] {
		if !c.opened(val) || !c.onlyFor(val, v) {
			return false
		}
	}
	for _, r := range c.vars.reads[v] {
		if !c.probeSet[r.fn] && !onlyInProcess(r.val) {
			return false
		}
	}
	return true
}

// createdForProbe: a pool or client a call opened in a probe's own code,
// or opened elsewhere and handed to nothing but the probes' closures, or
// opened and kept by the code that opened it alone (a factory of another
// package, whose probes this package cannot see: a pool per probe, or one
// per handler the factory returns).
func (c *checker) createdForProbe(fn *ssa.Function, call *ssa.Call) bool {
	if !c.opened(call) {
		return false
	}
	return c.probeSet[fn] || c.onlyFor(call, nil) || confined(call)
}

// confined: every use of the opened value v calls a method on it, hands
// it to a function that does no more with it, compares it with nil, or
// binds it to a closure that does no more with it and that the function
// returns. Nothing else can reach the pool: it is its opener's own. A
// store anywhere (a variable, a field, a channel) or a return lets others
// reach it.
func confined(v ssa.Value) bool {
	return confinedValue(v, 0, map[ssa.Value]bool{})
}

// seen holds the values asked about already: a cell's loads stored into
// other cells can lead back to it (primary, replica = replica, primary).
func confinedValue(v ssa.Value, depth int, seen map[ssa.Value]bool) bool {
	if depth > 3 {
		return false
	}
	if seen[v] {
		return true // asked already: its answer is being decided
	}
	seen[v] = true
	for _, ref := range ssautil.Referrers(v) {
		if !confinedUse(ref, v, depth, seen) {
			return false
		}
	}
	return true
}

func confinedUse(ref ssa.Instruction, v ssa.Value, depth int, seen map[ssa.Value]bool) bool {
	switch r := ref.(type) {
	case *ssa.Extract:
		return r.Index != 0 || confinedValue(r, depth, seen)
	case *ssa.BinOp, *ssa.DebugRef:
		return true
	case ssa.CallInstruction:
		common := r.Common()
		if ssautil.Receiver(common) == v {
			return true
		}
		callee := common.StaticCallee()
		if callee == nil || len(callee.Blocks) == 0 {
			return false
		}
		i := slices.Index(common.Args, v)
		return i >= 0 && i < len(callee.Params) && confinedValue(callee.Params[i], depth+1, seen)
	case *ssa.Store:
		// A variable a closure captures: its cell holds nothing else.
		alloc, ok := r.Addr.(*ssa.Alloc)
		return ok && r.Val == v && confinedCell(alloc, depth, seen)
	case *ssa.UnOp:
		return r.Op == token.MUL && confinedValue(r, depth, seen) // a captured cell's load
	case *ssa.MakeClosure:
		fn, _ := r.Fn.(*ssa.Function)
		i := slices.Index(r.Bindings, v)
		return fn != nil && i >= 0 && returned(r) && confinedValue(fn.FreeVars[i], depth+1, seen)
	}
	return false
}

// confinedCell: a local variable's cell that only the one store fills,
// whose loads are confined, and that only returned closures capture. The
// stores are counted first: a cell stored twice is no one value's.
func confinedCell(alloc *ssa.Alloc, depth int, seen map[ssa.Value]bool) bool {
	refs := ssautil.Referrers(alloc)
	stores := 0
	for _, ref := range refs {
		switch r := ref.(type) {
		case *ssa.Store:
			if stores++; r.Addr != alloc || stores > 1 {
				return false
			}
		case *ssa.UnOp, *ssa.MakeClosure, *ssa.DebugRef:
		default:
			return false
		}
	}
	for _, ref := range refs {
		if _, isStore := ref.(*ssa.Store); !isStore && !confinedUse(ref, alloc, depth, seen) {
			return false
		}
	}
	return true
}

// returned: the closure is its maker's result, as a func value or
// converted to a handler type.
func returned(v ssa.Value) bool {
	for _, ref := range ssautil.Referrers(v) {
		switch r := ref.(type) {
		case *ssa.Return:
		case *ssa.MakeInterface, *ssa.ChangeType:
			if !returned(r.(ssa.Value)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// opened: v is a new pool or client, returned by a call that takes no
// pool or client of its own (gorm's db.DB() or pgx's OpenDBFromPool(pool)
// return a view of one that exists).
func (c *checker) opened(v ssa.Value) bool {
	if x, ok := v.(*ssa.Extract); ok {
		v = x.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	for _, arg := range call.Common().Args {
		if catalog.ResourceNoun(arg.Type()) != "" {
			return false
		}
	}
	if recv := ssautil.Receiver(call.Common()); recv != nil && catalog.ResourceNoun(recv.Type()) != "" {
		return false
	}
	return !fromContext(call.Common())
}

// fromContext reports whether a call is handed only contexts and returns
// no error: it takes the pool out of what the caller carries (soft-serve's
// db.FromContext(ctx), the pool a middleware put in every request's
// context). Opening a pool can fail and says so; handing one out cannot.
func fromContext(common *ssa.CallCommon) bool {
	if len(common.Args) == 0 {
		return false
	}
	for _, arg := range common.Args {
		if !ssautil.IsContext(arg.Type()) {
			return false
		}
	}
	results := common.Signature().Results()
	for i := range results.Len() {
		if ssautil.IsError(results.At(i).Type()) {
			return false
		}
	}
	return true
}

// onlyFor: every use of the opened value v (through the extracts of its
// call) binds it to a probe's closure, stores it into the variable field
// (nil: none), or closes it or reads its statistics.
func (c *checker) onlyFor(v ssa.Value, field *types.Var) bool {
	vals := []ssa.Value{v}
	if x, ok := v.(*ssa.Extract); ok {
		vals = []ssa.Value{x.Tuple}
	}
	if call, ok := vals[0].(*ssa.Call); ok {
		for _, ref := range ssautil.Referrers(call) {
			if x, ok := ref.(*ssa.Extract); ok && x.Index == 0 {
				vals = append(vals, x)
			}
		}
	}
	for _, val := range vals {
		for _, ref := range ssautil.Referrers(val) {
			if !c.probeUse(ref, val, field) {
				return false
			}
		}
	}
	return true
}

func (c *checker) probeUse(ref ssa.Instruction, val ssa.Value, field *types.Var) bool {
	switch r := ref.(type) {
	case *ssa.Extract:
		return true // its other results: the error
	case *ssa.MakeClosure:
		fn, _ := r.Fn.(*ssa.Function)
		return c.probeSet[fn]
	case *ssa.Store:
		if v, _ := varOf(r.Addr); v != nil {
			return v == field
		}
		if alloc, ok := r.Addr.(*ssa.Alloc); ok {
			// A captured variable: its cell's uses decide.
			for _, cref := range ssautil.Referrers(alloc) {
				if mc, ok := cref.(*ssa.MakeClosure); ok {
					if fn, _ := mc.Fn.(*ssa.Function); !c.probeSet[fn] {
						return false
					}
				}
			}
			return true
		}
	case ssa.CallInstruction:
		return ssautil.Receiver(r.Common()) == val && inProcess(r.Common())
	case *ssa.BinOp:
		return true // compared with nil
	}
	return false
}

// onlyInProcess: every use of a read value closes it or reads its
// statistics.
func onlyInProcess(v ssa.Value) bool {
	for _, ref := range ssautil.Referrers(v) {
		call, ok := ref.(ssa.CallInstruction)
		if !ok || ssautil.Receiver(call.Common()) != v || !inProcess(call.Common()) {
			return false
		}
	}
	return true
}

func inProcess(common *ssa.CallCommon) bool {
	m := calledMethod(common)
	return m != nil && catalog.ProbeInProcessMethods.Has(m)
}

// markProbeSet: the probes and the functions of this package they reach
// by static calls and the closures they make.
func (c *checker) markProbeSet(probes []probe) {
	var work []*ssa.Function
	add := func(fn *ssa.Function) {
		if fn != nil && !c.probeSet[fn] {
			c.probeSet[fn] = true
			work = append(work, fn)
		}
	}
	for _, p := range probes {
		add(p.fn)
	}
	for len(work) > 0 {
		fn := work[len(work)-1]
		work = work[:len(work)-1]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.MakeClosure:
					f, _ := x.Fn.(*ssa.Function)
					add(f)
				case ssa.CallInstruction:
					if callee := x.Common().StaticCallee(); callee != nil && c.local[ssautil.Origin(callee)] {
						add(ssautil.Origin(callee))
					}
				}
			}
		}
	}
}
