package unboundedqueue

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A fan-out over a function's parameter (for _, addr := range addrs { go
// query(addr) }, addrs handed in) is as bounded as what its callers hand
// it: nsq's clusterinfo queries every lookupd address that nsqadmin passes
// from its configuration, one goroutine each, and a helper that fans out
// over the rows a handler read is per request. What bounds it is decided
// where it is called, by the rules a list ranged over in place gets
// (argumentFixed): the finding waits at the go statement (a paramFanOut)
// until a caller hands a list nothing fixes, and is reported then, naming
// that call. A caller that hands on a parameter of its own defers it again,
// to its callers. Only a function whose callers are all the module's is
// decided this way (callersInModule): an internal package's exported
// function's deferred fan-outs travel to the packages that call it in a
// fansOutOverParam fact, and one nobody in sight calls with data stays
// silent; an unexported one nobody calls directly (a func value), or any
// function of a main package (which nothing imports), is reported where it
// is; an exported function of a public package is an
// API, whose callers may hand it anything, and is judged where it is.

// fansOutOverParam marks a function whose goroutines per item range over
// one of its parameters, with the findings its callers decide.
type fansOutOverParam struct{ Fans []paramFanOut }

// paramFanOut is one such finding: the parameter's index (among the
// signature's parameters, the receiver not counted), and the report kept
// for the caller that hands it a list nothing fixes.
type paramFanOut struct {
	Index  int
	Report pendingReport
}

func (*fansOutOverParam) AFact() {}

func (f *fansOutOverParam) String() string { return fmt.Sprintf("fansOutOverParam(%d)", len(f.Fans)) }

// deferredFanOut is a fan-out over fn's parameter index that this package
// decides at fn's calls.
type deferredFanOut struct {
	fn  *types.Func
	fan paramFanOut // its Index is the parameter's
}

// fanOutParam is the function and parameter index whose callers decide a
// loop in fd over x, or nil: x is a parameter of fd itself, never assigned
// in it, fd is not a request's own function (a list a request handler is
// handed beside the request comes with it), and all of fd's callers are
// the module's (callersInModule).
func (c *checker) fanOutParam(fd *ast.FuncDecl, x ast.Expr) *deferredFanOut {
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	v := c.localVar(x)
	if fn == nil || v == nil || !c.callersInModule(fn) || c.runsPerRequest(fd) || c.takesRequest(fd.Type) {
		return nil
	}
	index, ok := paramIndex(c.pass.TypesInfo, fd)[v]
	if !ok || c.assignedIn(fd.Body, v) {
		return nil
	}
	return &deferredFanOut{fn: fn, fan: paramFanOut{Index: index}}
}

// callersInModule reports whether only the module's code can call fn: an
// unexported function, any function of a main package, or one exported by
// an internal package (nsq's internal/clusterinfo). An exported function of
// any other package is an API: whoever calls it may hand it any list, so
// its fan-out is judged where it is.
func (c *checker) callersInModule(fn *types.Func) bool {
	if !fn.Exported() || c.pass.Pkg.Name() == "main" {
		return true
	}
	for elem := range strings.SplitSeq(c.pass.Pkg.Path(), "/") {
		if elem == "internal" {
			return true
		}
	}
	return false
}

// assignedIn reports whether body assigns v or takes its address.
func (c *checker) assignedIn(body *ast.BlockStmt, v *types.Var) bool {
	assigned := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				assigned = assigned || c.localVar(lhs) == v
			}
		case *ast.UnaryExpr:
			assigned = assigned || n.Op == token.AND && c.localVar(n.X) == v
		}
		return !assigned
	})
	return assigned
}

// emitPerItem reports a goroutine per item, or keeps it for the callers
// when the loop ranges over a parameter they decide.
func (c *checker) emitPerItem(loop *perItemLoop, d analysis.Diagnostic) {
	if loop.overParam == nil {
		c.emit(d)
		return
	}
	r, ok := c.keep(d)
	if !ok {
		return
	}
	c.deferredFans = append(c.deferredFans, deferredFanOut{fn: loop.overParam.fn, fan: paramFanOut{Index: loop.overParam.fan.Index, Report: r}})
}

// callSite is a static call in the package's non-test files and the
// function declaration it is in.
type callSite struct {
	call *ast.CallExpr
	fd   *ast.FuncDecl
}

// decideParamFanOuts decides this package's deferred fan-outs and those of
// the functions it calls that carry fansOutOverParam, at this package's
// calls; it exports what is left undecided for an exported function.
func (c *checker) decideParamFanOuts() {
	work := c.deferredFans
	for _, of := range c.pass.AllObjectFacts() {
		fact, ok := of.Fact.(*fansOutOverParam)
		fn, isFunc := of.Object.(*types.Func)
		if !ok || !isFunc || fn.Pkg() == c.pass.Pkg {
			continue
		}
		for _, fan := range fact.Fans {
			work = append(work, deferredFanOut{fn: fn, fan: fan})
		}
	}
	if len(work) == 0 {
		return
	}
	calls := c.staticCalls()
	exported := map[*types.Func][]paramFanOut{}
	seen := map[string]bool{}
	for len(work) > 0 {
		item := work[0]
		work = work[1:]
		key := fmt.Sprintf("%p/%d/%s", item.fn, item.fan.Index, item.fan.Report.Key)
		if seen[key] {
			continue
		}
		seen[key] = true
		more, decided := c.decideAtCalls(item, calls[item.fn])
		work = append(work, more...)
		local := item.fn.Pkg() == c.pass.Pkg
		switch {
		case decided || !local:
		case item.fn.Exported() && c.pass.Pkg.Name() != "main":
			// importers decide it; a main package has none
			exported[item.fn] = append(exported[item.fn], item.fan)
		case len(calls[item.fn]) == 0:
			c.emitKept(item.fan.Report) // called only as a value: no caller to ask
		}
	}
	for fn, fans := range exported {
		c.pass.ExportObjectFact(fn, &fansOutOverParam{Fans: fans})
	}
}

// decideAtCalls judges the argument each of calls hands item's parameter:
// the first one nothing fixes reports the fan-out (decided); an argument
// that is the caller's own parameter defers it to the caller's callers
// (more).
func (c *checker) decideAtCalls(item deferredFanOut, calls []callSite) (more []deferredFanOut, decided bool) {
	for _, site := range calls {
		arg, written := argumentFor(item.fn, site.call, item.fan.Index)
		if written {
			continue // a variadic parameter's arguments written out: a fixed list
		}
		if c.argumentFixed(site, arg) {
			continue
		}
		if fwd := c.fanOutParam(site.fd, arg); fwd != nil && site.fd.Body != nil {
			fan := item.fan
			fan.Report.Related = append(fan.Report.Related[:len(fan.Report.Related):len(fan.Report.Related)],
				c.placeOf(site.call.Pos(), "called here with "+types.ExprString(arg)+", "+fwd.fn.Name()+"'s parameter, decided by its callers"))
			fan.Index = fwd.fan.Index
			more = append(more, deferredFanOut{fn: fwd.fn, fan: fan})
			continue
		}
		r := item.fan.Report
		r.Related = append(r.Related[:len(r.Related):len(r.Related)],
			c.placeOf(site.call.Pos(), "called here with "+types.ExprString(arg)+", a list nothing here bounds"))
		c.emitKept(r)
		return more, true
	}
	return more, false
}

// argumentFor is the argument call hands fn's parameter index; written
// reports a variadic parameter's arguments written out one by one.
func argumentFor(fn *types.Func, call *ast.CallExpr, index int) (arg ast.Expr, written bool) {
	sig := fn.Signature()
	if sig.Variadic() && index == sig.Params().Len()-1 {
		if !call.Ellipsis.IsValid() {
			return nil, true
		}
		return call.Args[len(call.Args)-1], false
	}
	if index >= len(call.Args) {
		return nil, true
	}
	return call.Args[index], false
}

// argumentFixed reports whether arg, handed at site, is a list fixed where
// it is made: nil, or what fixes a list ranged over in place
// (fixedWhereMade), or a list made in start-up code or kept in a field only
// start-up code sets.
func (c *checker) argumentFixed(site callSite, arg ast.Expr) bool {
	if id, ok := ast.Unparen(arg).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == types.Universe.Lookup("nil") {
		return true
	}
	caller, _ := c.pass.TypesInfo.Defs[site.fd.Name].(*types.Func)
	return c.fixedWhereMade(site.fd, arg, site.call.Pos()) || c.startupField(arg) ||
		c.inStartupCode(caller, c.stackOf(site.fd, site.call))
}

// staticCalls indexes the package's static calls in non-test files by
// callee.
func (c *checker) staticCalls() map[*types.Func][]callSite {
	out := map[*types.Func][]callSite{}
	for _, d := range c.funcDecls(false) {
		ast.Inspect(d.fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if fn := c.callee(call); fn != nil {
					out[fn.Origin()] = append(out[fn.Origin()], callSite{call: call, fd: d.fd})
				}
			}
			return true
		})
	}
	return out
}

// emitKept reports a kept finding here, once.
func (c *checker) emitKept(r pendingReport) {
	d := analysis.Diagnostic{Pos: c.placePos(r.At), Message: r.At.Message}
	for _, rel := range r.Related {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.placePos(rel), Message: rel.Message})
	}
	c.emit(d)
}
