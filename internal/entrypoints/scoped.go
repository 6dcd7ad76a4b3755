package entrypoints

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// callScoped reports whether target, a loop that parent starts in a
// goroutine (fnValue is the go statement's or the runner's function value,
// args the go statement's arguments), is a worker of parent's call rather
// than background work: every channel its loops receive from is made by
// parent, kept nowhere that outlives the call (a field, a global, a callee)
// and closed by parent or a function literal of its, and parent does not
// itself loop for the life of the process (its own loops: a call of
// errgroup's Wait, whose WaitGroup spins until the count drops, is no
// service loop).
// Such workers end when parent closes the channel, within the call that
// started them (claircore's EnrichedMatch feeds its matchers' workers,
// started with errgroup, over a channel it makes and closes, then waits for
// them: they are the request's work, not a background lane).
func (f *Finder) callScoped(parent, target *ssa.Function, fnValue ssa.Value, args []ssa.Value) bool {
	if parent == nil || target == nil || ownLoop(parent) != "" {
		return false
	}
	chans := receivedChannels(target)
	if len(chans) == 0 {
		return false // a ticker or a sleep: no channel of parent's ends it
	}
	for _, ch := range chans {
		mc := channelMadeBy(parent, target, ch, fnValue, args)
		if mc == nil || chanEscapes(parent, mc) || !closedInCall(parent, mc) {
			return false
		}
	}
	return true
}

// closedInCall reports whether parent, or a function literal it makes,
// closes mc: the workers' loop ends then. A channel nobody closes keeps its
// reader for the life of the process (go exportLoop(make(chan string)) in
// main).
func closedInCall(parent *ssa.Function, mc *ssa.MakeChan) bool {
	fns := append([]*ssa.Function{parent}, parent.AnonFuncs...)
	for i := 0; i < len(fns); i++ {
		fn := fns[i]
		if i > 0 {
			fns = append(fns, fn.AnonFuncs...)
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || len(call.Call.Args) != 1 {
					continue
				}
				if bi, ok := call.Call.Value.(*ssa.Builtin); ok && bi.Name() == "close" && originIs(fn, call.Call.Args[0], mc) {
					return true
				}
			}
		}
	}
	return false
}

// originIs reports whether v, a channel in fn, is mc: mc itself, read from
// the local variable it was stored in, or from a free variable bound to
// that variable by the closure that made fn.
func originIs(fn *ssa.Function, v ssa.Value, mc *ssa.MakeChan) bool {
	switch v := v.(type) {
	case *ssa.MakeChan:
		return v == mc
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return false
		}
		switch x := v.X.(type) {
		case *ssa.Alloc:
			return madeIn(mc.Parent(), x) == mc
		case *ssa.FreeVar:
			outer := fn.Parent()
			if outer == nil {
				return false
			}
			for _, b := range outer.Blocks {
				for _, instr := range b.Instrs {
					if clo, ok := instr.(*ssa.MakeClosure); ok && clo.Fn == fn {
						if bound := binding(fn, x, clo); bound != nil {
							if cell, ok := bound.(*ssa.Alloc); ok {
								return madeIn(mc.Parent(), cell) == mc
							}
						}
					}
				}
			}
		}
	}
	return false
}

// receivedChannels are the channels target takes items from in its own
// body: receives, range loops over a channel, and the receive cases of
// selects. A channel of empty structs (ctx.Done(), a stop signal) carries
// no item: a worker that also watches its context's cancellation is still
// fed by the call's channel.
func receivedChannels(target *ssa.Function) []ssa.Value {
	var out []ssa.Value
	add := func(ch ssa.Value) {
		if !signalChannel(ch.Type()) {
			out = append(out, ch)
		}
	}
	for _, b := range target.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.ARROW {
					add(instr.X)
				}
			case *ssa.Select:
				for _, st := range instr.States {
					if st.Dir == types.RecvOnly {
						add(st.Chan)
					}
				}
			}
		}
	}
	return out
}

// signalChannel reports whether t is a channel of empty structs.
func signalChannel(t types.Type) bool {
	ch, ok := t.Underlying().(*types.Chan)
	if !ok {
		return false
	}
	st, ok := ch.Elem().Underlying().(*types.Struct)
	return ok && st.NumFields() == 0
}

// channelMadeBy is the make(chan …) in parent that ch, a channel target
// receives from, is: a variable target captures from parent (through the
// closure's binding), or a parameter parent's go statement fills.
func channelMadeBy(parent, target *ssa.Function, ch ssa.Value, fnValue ssa.Value, args []ssa.Value) *ssa.MakeChan {
	var outer ssa.Value
	switch v := ch.(type) {
	case *ssa.UnOp: // *fv: a variable captured by reference
		fv, ok := v.X.(*ssa.FreeVar)
		if !ok || v.Op != token.MUL {
			return nil
		}
		outer = binding(target, fv, fnValue)
	case *ssa.FreeVar:
		outer = binding(target, v, fnValue)
	case *ssa.Parameter:
		for i, p := range target.Params {
			if p == v && i < len(args) {
				outer = args[i]
			}
		}
	}
	return madeIn(parent, outer)
}

// binding is the value parent bound to target's free variable fv.
func binding(target *ssa.Function, fv *ssa.FreeVar, fnValue ssa.Value) ssa.Value {
	mc, ok := fnValue.(*ssa.MakeClosure)
	if !ok || mc.Fn != target {
		return nil
	}
	for i, v := range target.FreeVars {
		if v == fv && i < len(mc.Bindings) {
			return mc.Bindings[i]
		}
	}
	return nil
}

// madeIn is v's make(chan …) when parent makes it: directly, or as the one
// value parent stores in a local variable's cell.
func madeIn(parent *ssa.Function, v ssa.Value) *ssa.MakeChan {
	switch v := v.(type) {
	case *ssa.MakeChan:
		if v.Parent() == parent {
			return v
		}
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return madeIn(parent, v.X)
		}
	case *ssa.Alloc:
		var made *ssa.MakeChan
		for _, ref := range *v.Referrers() {
			st, ok := ref.(*ssa.Store)
			if !ok || st.Addr != v {
				continue
			}
			mc, ok := st.Val.(*ssa.MakeChan)
			if !ok || mc.Parent() != parent || made != nil && made != mc {
				return nil
			}
			made = mc
		}
		return made
	}
	return nil
}

// chanEscapes reports whether parent hands the channel mc to anything that
// may outlive the call: a store other than in a local variable, a call of a
// function (not a builtin such as close), a conversion to an interface.
// Goroutines and closures parent starts are the call's own.
func chanEscapes(parent *ssa.Function, mc *ssa.MakeChan) bool {
	seen := map[ssa.Value]bool{}
	var escapes func(v ssa.Value) bool
	escapes = func(v ssa.Value) bool {
		if seen[v] || v.Referrers() == nil {
			return false
		}
		seen[v] = true
		for _, ref := range *v.Referrers() {
			switch ref := ref.(type) {
			case *ssa.Store:
				if ref.Val != v {
					continue
				}
				cell, ok := ref.Addr.(*ssa.Alloc)
				if !ok || cell.Parent() != parent {
					return true // a field, a global, an element
				}
				for _, use := range *cell.Referrers() {
					if load, ok := use.(*ssa.UnOp); ok && load.Op == token.MUL && escapes(load) {
						return true
					}
				}
			case *ssa.Call:
				if _, builtin := ref.Call.Value.(*ssa.Builtin); !builtin {
					return true
				}
			case *ssa.MakeInterface, *ssa.ChangeType:
				return true
			}
		}
		return false
	}
	return escapes(mc)
}
