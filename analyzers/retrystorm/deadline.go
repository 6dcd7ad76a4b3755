package retrystorm

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// A loop that leaves when a deadline passes makes a known number of
// attempts whatever the dependency does: the deadline, not the call's
// success, bounds it. A context only says so when it was given one: a
// context that may be cancelled only at shutdown bounds nothing. What
// carries a deadline is
//   - a context derived with context.WithTimeout or WithDeadline (or from
//     one, by WithCancel or WithValue, which keep the parent's deadline);
//   - a context parameter of a function no other package can call, when
//     every call of it in the package passes such a context
//     (instance.waitForReady(waitCtx) after waitCtx, cancel :=
//     context.WithTimeout(ctx, c.Timeout));
//   - a timer that fires once: time.After evaluated before the loop, or a
//     time.NewTimer made before it and not reset inside it.

// maxDeadlineDepth is how many callers up a context parameter is followed.
const maxDeadlineDepth = 3

// selectsDeadline reports whether sel, a select in the loop, has a case
// that receives from a channel closed or fed when a deadline passes.
func (c *checker) selectsDeadline(l *loop, sel *ssa.Select) bool {
	for _, st := range sel.States {
		if st.Dir == types.RecvOnly && c.deadlineChannel(l, st.Chan) {
			return true
		}
	}
	return false
}

// deadlineChannel reports whether ch fires when a deadline passes:
// ctx.Done() of a context with a deadline, or a one-shot timer's channel.
func (c *checker) deadlineChannel(l *loop, ch ssa.Value) bool {
	switch ch := ch.(type) {
	case *ssa.Call:
		common := ch.Common()
		if common.IsInvoke() && common.Method.Name() == "Done" && ssautil.IsContext(common.Value.Type()) {
			return c.carriesDeadline(common.Value, 0)
		}
		return calls(ch, "time.After") && !l.inLoop(ch)
	case *ssa.UnOp: // timer.C
		field, ok := ch.X.(*ssa.FieldAddr)
		if !ok || ch.Op != token.MUL {
			return false
		}
		return calls(field.X, "time.NewTimer") && !l.inLoop(field.X) && !resetIn(l, field.X)
	}
	return false
}

// calls reports whether v is the result of a call of the function key
// names.
func calls(v ssa.Value, key string) bool {
	call, ok := v.(*ssa.Call)
	if !ok {
		return false
	}
	fn := calleeFunc(call.Common())
	return fn != nil && catalog.Key(fn) == key
}

// resetIn reports whether the loop re-arms timer: a timer reset each round
// is a pause, not a deadline.
func resetIn(l *loop, timer ssa.Value) bool {
	for _, ref := range ssautil.Referrers(timer) {
		call, ok := ref.(*ssa.Call)
		if !ok || !l.blocks[call.Block()] {
			continue
		}
		if fn := calleeFunc(call.Common()); fn != nil && fn.Name() == "Reset" {
			return true // timer.Reset(d): the timer is its receiver
		}
	}
	return false
}

// errOfDeadlineContext reports whether common is ctx.Err() on a context
// with a deadline.
func (c *checker) errOfDeadlineContext(common *ssa.CallCommon) bool {
	return common.IsInvoke() && common.Method.Name() == "Err" && ssautil.IsContext(common.Value.Type()) &&
		c.carriesDeadline(common.Value, 0)
}

// carriesDeadline reports whether the context ctx ends by itself.
func (c *checker) carriesDeadline(ctx ssa.Value, depth int) bool {
	switch v := ssautil.Unconverted(ctx).(type) {
	case *ssa.MakeInterface:
		return c.carriesDeadline(v.X, depth)
	case *ssa.Extract:
		call, ok := v.Tuple.(*ssa.Call)
		return ok && v.Index == 0 && c.derivesDeadline(call.Common(), depth)
	case *ssa.Call:
		return c.derivesDeadline(v.Common(), depth)
	case *ssa.Parameter:
		if depth >= maxDeadlineDepth {
			return false
		}
		key := paramAtDepth{v, depth}
		if has, ok := c.paramDeadlines[key]; ok {
			return has // asked already, or being asked (a function passing its own context on to itself)
		}
		c.paramDeadlines[key] = false
		has := c.callersPassDeadline(v, depth+1)
		c.paramDeadlines[key] = has
		return has
	}
	return false
}

// paramAtDepth is a parameter asked about, and how deep: the answer is
// cut short at maxDeadlineDepth, so it holds for that depth.
type paramAtDepth struct {
	param *ssa.Parameter
	depth int
}

// derivesDeadline reports whether a call returns a context with a deadline:
// WithTimeout and WithDeadline, or WithCancel and WithValue of one.
func (c *checker) derivesDeadline(common *ssa.CallCommon, depth int) bool {
	fn := calleeFunc(common)
	switch {
	case catalog.DeadlineContexts.Has(fn):
		return true
	case catalog.DerivedContexts.Has(fn) && len(common.Args) > 0:
		return c.carriesDeadline(common.Args[0], depth)
	}
	return false
}

// callersPassDeadline reports whether param belongs to a function only this
// package calls, only by name, and every call passes a context with a
// deadline for it.
func (c *checker) callersPassDeadline(param *ssa.Parameter, depth int) bool {
	fn := param.Parent()
	obj, ok := fn.Object().(*types.Func)
	if !ok || fn.Parent() != nil || obj.Exported() || c.usedAsValue()[obj] || c.satisfiesInterface(obj) {
		return false
	}
	index := -1
	for i, p := range fn.Params {
		if p == param {
			index = i
		}
	}
	calls := 0
	for _, caller := range c.funcs {
		for _, b := range caller.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok || call.Common().StaticCallee() != fn {
					continue
				}
				if index >= len(call.Common().Args) || !c.carriesDeadline(call.Common().Args[index], depth) {
					return false
				}
				calls++
			}
		}
	}
	return calls > 0
}

// usedAsValue is the package's functions and methods named anywhere but
// in the function position of a call: stored, passed, a method value. Who
// calls them then is not known.
func (c *checker) usedAsValue() map[*types.Func]bool {
	if c.valueUses != nil {
		return c.valueUses
	}
	c.valueUses = map[*types.Func]bool{}
	for _, f := range c.pass.Files {
		ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			fn, ok := c.pass.TypesInfo.Uses[id].(*types.Func)
			if ok && fn.Pkg() == c.pass.Pkg && !calledByName(id, stack) {
				c.valueUses[fn] = true
			}
			return true
		})
	}
	return c.valueUses
}

// calledByName reports whether id, below stack, is what a call calls:
// f(…) or x.f(…).
func calledByName(id *ast.Ident, stack []ast.Node) bool {
	var fun ast.Node = id
	i := len(stack) - 1
	if i >= 0 {
		if sel, ok := stack[i].(*ast.SelectorExpr); ok && sel.Sel == id {
			fun, i = sel, i-1
		}
	}
	if i < 0 {
		return false
	}
	call, ok := stack[i].(*ast.CallExpr)
	return ok && call.Fun == fun
}

// satisfiesInterface reports whether a method could be called through an
// interface of the package: one declares a method of its name.
func (c *checker) satisfiesInterface(fn *types.Func) bool {
	if fn.Signature().Recv() == nil {
		return false
	}
	for _, iface := range pkgscope.Interfaces(c.pass.Pkg) {
		for m := range iface.Methods() {
			if m.Name() == fn.Name() {
				return true
			}
		}
	}
	return false
}
