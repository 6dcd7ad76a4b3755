package retrystorm

import (
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// pause is how a call or a receive makes a loop wait.
type pause int

const (
	noPause pause = iota
	constantPause
	growingPause
)

// sleepsOf returns how fn makes its caller wait, or nil if it does not.
func (c *checker) sleepsOf(fn *ssa.Function) *Sleeps {
	fn = origin(fn)
	obj, _ := fn.Object().(*types.Func)
	if obj != nil {
		if catalog.Backoffs.Has(obj) {
			return &Sleeps{Growing: true}
		}
		if i, ok := catalog.Sleeps[catalog.Key(obj)]; ok {
			return &Sleeps{DurationParams: []int{i}}
		}
		if obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg {
			var fact Sleeps
			if c.pass.ImportObjectFact(obj, &fact) {
				return &fact
			}
			return nil
		}
	}
	if f, ok := c.sleeps[fn]; ok {
		return f
	}
	if c.visiting[fn] || len(fn.Blocks) == 0 {
		return nil
	}
	c.visiting[fn] = true
	defer delete(c.visiting, fn)
	var fact *Sleeps
	src := paramSource{fn: fn}
	waits := map[*ssa.BasicBlock]bool{}
	direct := false
	looped := map[*ssa.BasicBlock]bool{} // a wait in a loop is a retry or poll, not a sleep helper
	for _, l := range loopsOf(fn) {
		maps.Copy(looped, l.blocks)
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			p, params := c.instrPause(instr, src.classify)
			if p == noPause {
				continue
			}
			waits[b] = true
			direct = direct || (isDirectWait(instr) && !looped[b])
			if fact == nil {
				fact = &Sleeps{}
			}
			fact.Growing = fact.Growing || p == growingPause
			for _, i := range params {
				if !slices.Contains(fact.DurationParams, i) {
					fact.DurationParams = append(fact.DurationParams, i)
				}
			}
		}
	}
	if fact != nil && !direct && returnsWithoutWaiting(fn, waits) {
		fact = nil
	}
	if fact != nil {
		slices.Sort(fact.DurationParams)
		if fact.Growing {
			fact.DurationParams = nil
		}
	}
	c.sleeps[fn] = fact
	return fact
}

// returnsWithoutWaiting reports whether fn has a path from its entry to a
// return that passes no waiting block. A function that sleeps or waits on a
// timer itself, outside a loop, is a wait to its callers (sleepCtx returns
// early when d <= 0);
// one that only calls functions that wait must do so on every path: a client
// whose transport waits on timers for its timeouts is not a pause.
func returnsWithoutWaiting(fn *ssa.Function, waits map[*ssa.BasicBlock]bool) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := []*ssa.BasicBlock{fn.Blocks[0]}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[b] || waits[b] {
			continue
		}
		seen[b] = true
		if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			return true
		}
		stack = append(stack, b.Succs...)
	}
	return false
}

// isDirectWait reports a wait made by fn itself: time.Sleep, a backoff
// library, a receive from a timer.
func isDirectWait(instr ssa.Instruction) bool {
	call, ok := instr.(*ssa.Call)
	if !ok {
		return true // a receive or select on a timer
	}
	callee := call.Common().StaticCallee()
	if callee == nil {
		return call.Common().IsInvoke() // a backoff interface method
	}
	obj, _ := origin(callee).Object().(*types.Func)
	if obj == nil {
		return false
	}
	_, sleep := catalog.Sleeps[catalog.Key(obj)]
	return sleep || catalog.Backoffs.Has(obj)
}

// durationOf classifies a duration value where it is used: growing (it
// changes between attempts, or is jittered), constant, or taken from the
// given parameters of the enclosing function.
type durationOf func(v ssa.Value) (growing bool, params []int)

// instrPause says whether instr waits, and how.
func (c *checker) instrPause(instr ssa.Instruction, dur durationOf) (pause, []int) {
	switch instr := instr.(type) {
	case *ssa.Call:
		if timer, d := timerCall(instr.Common()); timer {
			// Creating a timer does not wait, but re-arming one inside a
			// loop with a growing delay is how some loops back off.
			if growing, _ := dur(d); growing && instr.Common().StaticCallee().Name() == "Reset" {
				return growingPause, nil
			}
			return noPause, nil
		}
		return c.callPause(instr.Common(), dur)
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			return timerWait(instr.X, dur)
		}
	case *ssa.Select:
		best, params := noPause, []int(nil)
		for _, st := range instr.States {
			if st.Dir == types.RecvOnly {
				if p, ps := timerWait(st.Chan, dur); p > best {
					best, params = p, ps
				}
			}
		}
		return best, params
	}
	return noPause, nil
}

// timerCall reports whether common creates or re-arms a timer, and the
// duration it is given.
func timerCall(common *ssa.CallCommon) (bool, ssa.Value) {
	callee := common.StaticCallee()
	if callee == nil {
		return false, nil
	}
	obj, ok := origin(callee).Object().(*types.Func)
	if !ok {
		return false, nil
	}
	i, ok := catalog.Timers[catalog.Key(obj)]
	if !ok || i >= len(common.Args) {
		return false, nil
	}
	return true, common.Args[i]
}

// timerWait classifies a receive from ch: a wait when ch is a timer's
// channel (time.After(d), t.C), constant unless the timer's duration grows.
func timerWait(ch ssa.Value, dur durationOf) (pause, []int) {
	if call, ok := ch.(*ssa.Call); ok {
		if timer, d := timerCall(call.Common()); timer {
			return classified(dur(d))
		}
		if timer, d := isClockTimer(call.Common()); timer {
			return classified(dur(d))
		}
		return noPause, nil
	}
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return noPause, nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return noPause, nil
	}
	if s := catalog.TypeKey(fa.X.Type()); s != "*time.Timer" && s != "*time.Ticker" {
		return noPause, nil
	}
	if call, ok := fa.X.(*ssa.Call); ok {
		if timer, d := timerCall(call.Common()); timer {
			return classified(dur(d))
		}
	}
	return constantPause, nil
}

func classified(growing bool, params []int) (pause, []int) {
	if growing {
		return growingPause, nil
	}
	return constantPause, params
}

func (c *checker) callPause(common *ssa.CallCommon, dur durationOf) (pause, []int) {
	args := common.Args
	var callees []*ssa.Function
	switch {
	case common.IsInvoke():
		if catalog.Backoffs.Has(common.Method) {
			return growingPause, nil
		}
		if isClockSleep(common.Method.Signature()) {
			return injectedPause(common, dur)
		}
		return noPause, nil
	case common.StaticCallee() != nil:
		callees = []*ssa.Function{common.StaticCallee()}
	default:
		callees = c.funcsOf(common.Value)
		if callees == nil {
			return injectedPause(common, dur)
		}
	}
	best, params := noPause, []int(nil)
	for _, callee := range callees {
		fact := c.sleepsOf(callee)
		if fact == nil {
			continue
		}
		p := constantPause
		if fact.Growing {
			p = growingPause
		}
		for _, i := range fact.DurationParams {
			if i >= len(args) {
				continue
			}
			growing, ps := dur(args[i])
			if growing {
				p = growingPause
			}
			params = append(params, ps...)
		}
		best = max(best, p)
	}
	return best, params
}

// injectedPause treats a call through a function value that cannot be
// resolved, and takes a time.Duration, as a wait: sleep functions are
// injected that way so tests can fake them. So are clocks (isClockSleep).
func injectedPause(common *ssa.CallCommon, dur durationOf) (pause, []int) {
	sig := common.Signature()
	for i := range sig.Params().Len() {
		if isDuration(sig.Params().At(i).Type()) && i < len(common.Args) {
			growing, params := dur(common.Args[i])
			if growing {
				return growingPause, nil
			}
			return constantPause, params
		}
	}
	return noPause, nil
}

// isClockSleep reports whether sig, an interface method's, has a clock's
// Sleep shape: one time.Duration in, nothing out (jmhodges/clock's
// Clock.Sleep, benbjohnson/clock's, k8s.io/utils/clock's). A clock is an
// interface so that tests can fake time; its real implementation waits,
// as a sleep function injected through a func value does.
func isClockSleep(sig *types.Signature) bool {
	return sig.Params().Len() == 1 && isDuration(sig.Params().At(0).Type()) && sig.Results().Len() == 0
}

// isClockTimer reports whether common calls an interface method with a
// clock's After shape: one time.Duration in, a channel of time.Time out
// (Clock.After(d)): receiving from it waits, as from time.After.
func isClockTimer(common *ssa.CallCommon) (bool, ssa.Value) {
	if !common.IsInvoke() || len(common.Args) != 1 {
		return false, nil
	}
	sig := common.Method.Signature()
	if sig.Params().Len() != 1 || !isDuration(sig.Params().At(0).Type()) || sig.Results().Len() != 1 {
		return false, nil
	}
	ch, ok := sig.Results().At(0).Type().Underlying().(*types.Chan)
	return ok && ch.Dir() != types.SendOnly && catalog.TypeKey(ch.Elem()) == "time.Time", common.Args[0]
}

// ---- func-typed fields ----

type fieldKey struct {
	st    string
	index int
}

// fieldFuncs finds the functions this package stores into func-typed struct
// fields, so a call through the field can be resolved to them.
func fieldFuncs(funcs []*ssa.Function) map[fieldKey][]*ssa.Function {
	out := map[fieldKey][]*ssa.Function{}
	for fa, f := range ssautil.FuncsStoredInFields(funcs) {
		k := fieldKeyOf(fa)
		if !slices.Contains(out[k], f) {
			out[k] = append(out[k], f)
		}
	}
	return out
}

func fieldKeyOf(fa *ssa.FieldAddr) fieldKey {
	return fieldKey{types.TypeString(fa.X.Type(), nil), fa.Field}
}

// funcsOf resolves a function value to the functions it may denote: a
// function or closure, or a func-typed field this package assigns.
func (c *checker) funcsOf(v ssa.Value) []*ssa.Function {
	if f := ssautil.FuncOf(v); f != nil {
		return []*ssa.Function{f}
	}
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if fa, ok := load.X.(*ssa.FieldAddr); ok {
			return c.fields[fieldKeyOf(fa)]
		}
	}
	return nil
}

// ---- durations inside a helper ----

// paramSource classifies a duration inside a function that waits: from a
// parameter, computed afresh (growing), or constant.
type paramSource struct{ fn *ssa.Function }

func (s paramSource) classify(v ssa.Value) (bool, []int) {
	var params []int
	growing := false
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value)
	walk = func(v ssa.Value) {
		if v == nil || seen[v] || growing {
			return
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Parameter:
			if i := slices.Index(s.fn.Params, v); i >= 0 {
				params = append(params, i)
			}
		case *ssa.Call, *ssa.Phi:
			growing = true // a delay computed by a call (rand, NextBackOff) or a loop
		case *ssa.UnOp:
			if v.Op == token.MUL && storedIn(s.fn, v.X) {
				growing = true // a delay the function updates: b.cur *= 2
				return
			}
			walk(v.X)
		default:
			for _, op := range operands(v) {
				walk(op)
			}
		}
	}
	walk(v)
	return growing, params
}

// storedIn reports whether fn stores to the same field as addr.
func storedIn(fn *ssa.Function, addr ssa.Value) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	k := fieldKeyOf(fa)
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok {
				if other, ok := st.Addr.(*ssa.FieldAddr); ok && fieldKeyOf(other) == k {
					return true
				}
			}
		}
	}
	return false
}

func operands(v ssa.Value) []ssa.Value {
	instr, ok := v.(ssa.Instruction)
	if !ok {
		return nil
	}
	var out []ssa.Value
	for _, op := range instr.Operands(nil) {
		if *op != nil {
			out = append(out, *op)
		}
	}
	return out
}
