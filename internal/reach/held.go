package reach

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// What is held, and until when, is heldconn's notion (see `bhlint -explain
// heldconn`): a value of a catalogue HeldKind (or a struct wrapping one) is
// held from the call that returns it until, on each path, a release; the
// branch on which the acquiring call failed holds nothing; the last
// rows.Next() closes rows; a deferred release holds until the return. An
// analyzer never imports another, so the rules are restated here.

func heldKindOf(t types.Type) (catalog.HeldKind, bool) {
	if k, ok := catalog.ExactHeldKind(t); ok {
		return k, true
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return catalog.HeldKind{}, false
	}
	for f := range st.Fields() {
		if k, ok := catalog.ExactHeldKind(f.Type()); ok {
			return k, true
		}
	}
	return catalog.HeldKind{}, false
}

func isHeldType(t types.Type) bool {
	_, ok := heldKindOf(t)
	return ok
}

// aliasesOf returns v and the values that carry the same connection.
func aliasesOf(v ssa.Value) map[ssa.Value]bool {
	set := map[ssa.Value]bool{}
	var add func(v ssa.Value)
	add = func(v ssa.Value) {
		if set[v] {
			return
		}
		set[v] = true
		for _, r := range ssautil.Referrers(v) {
			switch r := r.(type) {
			case *ssa.Phi, *ssa.ChangeType, *ssa.MakeInterface, *ssa.ChangeInterface:
				add(r.(ssa.Value))
			case *ssa.TypeAssert:
				if !r.CommaOk {
					add(r)
				}
			case *ssa.Field:
				if isHeldType(r.Type()) {
					add(r)
				}
			case *ssa.FieldAddr:
				if isHeldType(r.Type().(*types.Pointer).Elem()) {
					for _, l := range ssautil.Referrers(r) {
						if load, ok := l.(*ssa.UnOp); ok && load.Op == token.MUL {
							add(load)
						}
					}
				}
			}
		}
	}
	add(v)
	return set
}

// releases reports whether instr releases a value of the set.
func (c *checker) releases(instr ssa.Instruction, held map[ssa.Value]bool, kind catalog.HeldKind) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return false
	}
	common := call.Common()
	if common.IsInvoke() {
		return held[common.Value] && slices.Contains(kind.Release, common.Method.Name())
	}
	callee := common.StaticCallee()
	if callee == nil {
		return false
	}
	if obj, ok := ssautil.Origin(callee).Object().(*types.Func); ok {
		if obj.Signature().Recv() != nil && len(common.Args) > 0 && held[common.Args[0]] && slices.Contains(kind.Release, obj.Name()) {
			return true
		}
		if i, ok := catalog.ReleasingFuncs[catalog.Key(obj)]; ok && i < len(common.Args) && held[common.Args[i]] {
			return true
		}
	}
	for _, i := range c.releasedParams(callee) {
		if i < len(common.Args) && held[common.Args[i]] {
			return true
		}
	}
	return false
}

func (c *checker) releasedParams(callee *ssa.Function) []int {
	callee = ssautil.Origin(callee)
	if params, ok := c.releasers[callee]; ok {
		return params
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok || obj.Pkg() == c.pass.Pkg {
		return nil
	}
	var fact releasesParam
	if c.pass.ImportObjectFact(obj, &fact) {
		return fact.Params
	}
	return nil
}

// learnReleasers finds the functions that release a connection passed to
// them, to a fixed point.
func (c *checker) learnReleasers() {
	for changed := true; changed; {
		changed = false
		for _, fn := range c.funcs {
			if _, done := c.releasers[fn]; done {
				continue
			}
			var params []int
			for i, p := range fn.Params {
				kind, ok := heldKindOf(p.Type())
				if ok && c.releasedIn(fn, aliasesOf(p), kind) {
					params = append(params, i)
				}
			}
			if params != nil {
				c.releasers[fn] = params
				changed = true
				if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
					c.pass.ExportObjectFact(obj, &releasesParam{Params: params})
				}
			}
		}
	}
}

func (c *checker) releasedIn(fn *ssa.Function, held map[ssa.Value]bool, kind catalog.HeldKind) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if c.releases(instr, held, kind) {
				return true
			}
		}
	}
	return false
}

// acquisition is a call that returns a held connection.
type acquisition struct {
	call   *ssa.Call
	kind   catalog.HeldKind
	held   map[ssa.Value]bool
	errVal ssa.Value
	hold   Hold
}

func (c *checker) acquisitionOf(fn *ssa.Function, call *ssa.Call) *acquisition {
	results := call.Common().Signature().Results()
	if results.Len() == 0 {
		return nil
	}
	kind, ok := heldKindOf(results.At(0).Type())
	if !ok {
		return nil
	}
	args := call.Common().Args
	if call.Common().IsInvoke() {
		args = append([]ssa.Value{call.Common().Value}, args...)
	}
	// A value derived from one already held (tx.Query) is covered by the
	// span of the one it came from.
	for _, arg := range args {
		if isHeldType(arg.Type()) {
			return nil
		}
	}
	acq := &acquisition{call: call, kind: kind}
	if results.Len() == 1 {
		acq.held = aliasesOf(call)
	} else {
		for _, r := range ssautil.Referrers(call) {
			if ex, ok := r.(*ssa.Extract); ok {
				switch {
				case ex.Index == 0:
					acq.held = aliasesOf(ex)
				case ex.Index == results.Len()-1 && ssautil.IsError(ex.Type()):
					acq.errVal = ex
				}
			}
		}
	}
	if acq.held == nil {
		return nil
	}
	acq.hold = c.poolHold(fn, args, kind.Noun, callName(call.Common())+" in "+netio.DisplayName(fn))
	return acq
}

// poolHold names the pool a connection comes from: the receiver, or the
// first argument that is a pool.
func (c *checker) poolHold(fn *ssa.Function, args []ssa.Value, noun, by string) Hold {
	h := Hold{Noun: noun, By: by, Param: -1}
	for _, a := range args {
		if ssautil.IsContext(a.Type()) || isFunc(a.Type()) {
			continue
		}
		o := c.originOf(fn, a, 6)
		if t, ok := typedOrigin(a.Type()); ok && !o.known() && o.param < 0 {
			o = t
		}
		switch {
		case o.known():
			h.Key, h.Name = o.key, o.nameAs("pool")
			return h
		case o.param >= 0:
			h.Param = o.param
			h.Key, h.Name = "param", "a pool passed in"
			return h
		}
	}
	h.Key, h.Name = "unknown:"+by, "a pool of unknown origin"
	return h
}

func isFunc(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// spans marks, for each acquisition of fn, the instructions reached while
// it is held.
func (c *checker) spans(fn *ssa.Function) map[ssa.Instruction][]Hold {
	out := map[ssa.Instruction][]Hold{}
	for _, b := range fn.Blocks {
		for i, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			if acq := c.acquisitionOf(fn, call); acq != nil {
				c.follow(acq, b, i+1, out)
			}
		}
	}
	return out
}

func (c *checker) follow(acq *acquisition, start *ssa.BasicBlock, index int, out map[ssa.Instruction][]Hold) {
	type point struct {
		b *ssa.BasicBlock
		i int
	}
	visited := map[*ssa.BasicBlock]bool{}
	work := []point{{start, index}}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		released := false
		for _, instr := range p.b.Instrs[p.i:] {
			if instr == acq.call || c.releases(instr, acq.held, acq.kind) {
				released = true
				break
			}
			if !slices.Contains(out[instr], acq.hold) {
				out[instr] = append(out[instr], acq.hold)
			}
		}
		if released {
			continue
		}
		for _, succ := range successors(acq, p.b) {
			if !visited[succ] {
				visited[succ] = true
				work = append(work, point{succ, 0})
			}
		}
	}
}

func successors(acq *acquisition, b *ssa.BasicBlock) []*ssa.BasicBlock {
	ifInstr, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return b.Succs
	}
	switch cond := ifInstr.Cond.(type) {
	case *ssa.BinOp:
		if acq.errVal != nil && (cond.Op == token.NEQ || cond.Op == token.EQL) &&
			((cond.X == acq.errVal && ssautil.IsNil(cond.Y)) || (cond.Y == acq.errVal && ssautil.IsNil(cond.X))) {
			if cond.Op == token.NEQ {
				return b.Succs[1:]
			}
			return b.Succs[:1]
		}
	case *ssa.Call:
		if acq.kind.NextReleases && isNextOn(cond.Common(), acq.held) {
			return b.Succs[:1]
		}
	}
	return b.Succs
}

func isNextOn(common *ssa.CallCommon, held map[ssa.Value]bool) bool {
	if common.IsInvoke() {
		return common.Method.Name() == "Next" && held[common.Value]
	}
	callee := common.StaticCallee()
	return callee != nil && callee.Name() == "Next" && len(common.Args) == 1 && held[common.Args[0]]
}

// ---- callbacks run while holding ----

// callbackHold says whether a call runs its argument index while holding
// something, and what: a transaction callback (pgx.BeginFunc, a user's
// InTx), a lane executor's slot (Executor.Do, bulkhead.Call).
func (c *checker) callbackHold(fn *ssa.Function, common *ssa.CallCommon) (int, Hold, bool) {
	if common.IsInvoke() {
		// A library's interface method that runs its callback in a
		// transaction (MongoDB v1's Session.WithTransaction); the receiver
		// counts as argument 0, as for a static call.
		i, ok := catalog.TxCallbacks[catalog.Key(common.Method)]
		if !ok || i < 1 || i > len(common.Args) {
			return -1, Hold{}, false
		}
		args := append([]ssa.Value{common.Value}, common.Args...)
		return i - 1, c.poolHold(fn, args, "transaction", netio.Name(common.Method)+" in "+netio.DisplayName(fn)), true
	}
	callee := common.StaticCallee()
	if callee == nil {
		return -1, Hold{}, false
	}
	callee = ssautil.Origin(callee)
	obj, _ := callee.Object().(*types.Func)
	args := common.Args
	if obj != nil {
		key := catalog.Key(obj)
		if i, ok := catalog.TxCallbacks[key]; ok && i < len(args) {
			noun := "transaction"
			if obj.Name() == "AcquireFunc" {
				noun = "connection"
			}
			return i, c.poolHold(fn, args, noun, netio.Name(obj)+" in "+netio.DisplayName(fn)), true
		}
		if i, ok := catalog.LaneRunners[key]; ok && i < len(args) {
			return i, c.executorHold(fn, args, netio.Name(obj)+" in "+netio.DisplayName(fn)), true
		}
	}
	fact := c.holders[callee]
	if fact == nil && obj != nil && obj.Pkg() != c.pass.Pkg {
		var f holdsDuring
		if c.pass.ImportObjectFact(obj, &f) {
			fact = &f
		}
	}
	if fact == nil || fact.Param >= len(args) {
		return -1, Hold{}, false
	}
	return fact.Param, c.resolveHold(fn, fact.Hold, args, netio.DisplayName(callee)), true
}

// executorHold names the executor a runner call runs its work in.
func (c *checker) executorHold(fn *ssa.Function, args []ssa.Value, by string) Hold {
	h := Hold{Noun: "executor slot", By: by, Param: -1}
	for _, a := range args {
		if _, kind, ok := catalog.LaneTyped(a.Type()); ok && kind == "executor" {
			o, _ := typedOrigin(a.Type())
			h.Key, h.Name = o.key, o.name
			return h
		}
	}
	if len(args) > 0 {
		if o := c.originOf(fn, args[0], 6); o.known() {
			h.Key, h.Name = o.key, o.name
			return h
		}
	}
	h.Key, h.Name = "unknown:"+by, "an executor"
	return h
}

// resolveHold names, in the caller, a pool the callee's hold knew only as
// its parameter.
func (c *checker) resolveHold(fn *ssa.Function, h Hold, args []ssa.Value, callee string) Hold {
	if h.Param < 0 {
		return h
	}
	if h.Param >= len(args) {
		h.Param = -1
		h.Key, h.Name = "unknown:"+callee, "the pool passed to "+callee
		return h
	}
	o := c.originOf(fn, args[h.Param], 6)
	switch {
	case o.known():
		h.Key, h.Name, h.Param = o.key, o.nameAs("pool"), -1
	case o.param >= 0:
		h.Param = o.param
	default:
		h.Param = -1
		h.Key, h.Name = "unknown:"+callee, "the pool passed to "+callee
	}
	return h
}

// learnHolders finds the functions that run a func parameter while they
// hold something, to a fixed point, and exports them.
func (c *checker) learnHolders() {
	for changed := true; changed; {
		changed = false
		for _, fn := range c.funcs {
			if _, done := c.holders[fn]; done {
				continue
			}
			if f := c.holderFact(fn); f != nil {
				c.holders[fn] = f
				changed = true
			}
		}
	}
	for fn, f := range c.holders {
		if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
			c.pass.ExportObjectFact(obj, f)
		}
	}
}

func (c *checker) holderFact(fn *ssa.Function) *holdsDuring {
	paramIndex := func(v ssa.Value) int {
		if p, ok := v.(*ssa.Parameter); ok {
			return slices.Index(fn.Params, p)
		}
		return -1
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			common := call.Common()
			if i := paramIndex(common.Value); i >= 0 && !common.IsInvoke() && len(c.held[fn][call]) > 0 {
				return &holdsDuring{Param: i, Hold: c.held[fn][call][0]}
			}
			if idx, hold, ok := c.callbackHold(fn, common); ok {
				if i := paramIndex(common.Args[idx]); i >= 0 {
					return &holdsDuring{Param: i, Hold: hold}
				}
			}
		}
	}
	return nil
}
