package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
	"github.com/bhlint/bhlint/internal/pkgscope"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// waitsOnNetwork marks a function that may wait on the network with no
// deadline of its own: it makes a network call of the catalogue or calls
// an interface method shaped as (*http.Client).Do (catalog.IsHTTPDoer), or calls
// a function or interface method so marked, and sets no deadline (no
// context with a timeout or a deadline, no Timeout field as in
// http.Client{Timeout: d}, no SetDeadline): one that sets one bounds every
// wait under it. Also an interface method that a type of its own package
// implements with a method so marked (mailer.Mailer's Send, implemented by
// the package's SMTP client; a generated gRPC client interface), and a
// function that hands a function literal so marked to a call it makes (a
// hook's Trigger(event, func(e) error { return e.Mailer.Send(m) })). Calls
// through function values and through interfaces whose implementations
// live elsewhere are not followed.
type waitsOnNetwork struct{}

func (*waitsOnNetwork) AFact()         {}
func (*waitsOnNetwork) String() string { return "waitsOnNetwork" }

// netWaits is what this package knows of network waits: its functions
// (declared and literals) and its interface methods, each with the call by
// which it waits, for messages.
type netWaits struct {
	funcs     map[*ssa.Function]string
	ifaces    map[*types.Func]string
	deadlines map[*ssa.Function]bool   // functions whose body sets a deadline
	builders  map[*types.TypeName]bool // types a function that sets a deadline builds
	bodies    map[token.Pos]*ast.BlockStmt
	tables    *ssautil.DispatchTables // the package's maps of functions, for calls looked up in them

	rounds ssautil.Rounds // learnNetworkWaits', for who reads whose wait
}

// learnNetworkWaits exports waitsOnNetwork for this package. It needs SSA,
// so it runs only in a package that calls the network catalogue, uses a
// function or method another package marked, or has a goroutine per
// request to look into (checkDetachedPerRequest asks for it then).
func (c *checker) learnNetworkWaits(force bool) *netWaits {
	if c.net != nil {
		return c.net
	}
	if !force && !c.usesNetworkWaits() {
		return nil
	}
	c.net = &netWaits{funcs: map[*ssa.Function]string{}, ifaces: map[*types.Func]string{}, deadlines: map[*ssa.Function]bool{}}
	if !pkgscope.Reaches(c.pass.Pkg, catalog.NetworkPackages) {
		return c.net
	}
	builder := c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder)
	funcs := builder.SrcFuncs()
	impls := ssautil.LocalImplementationFuncs(c.pass.Pkg, builder.Package().Prog)
	c.net.tables = ssautil.NewDispatchTables(builder.Package().Prog, c.pass.Pkg, c.pass.TypesInfo, c.pass.Files)
	// To a fixed point: a function found waiting is done; one not found may
	// be found when a function or interface method it calls is.
	c.net.rounds.Run(funcs, func(fn *ssa.Function) {
		if _, done := c.net.funcs[fn]; done {
			return
		}
		if via := c.waitsIn(fn); via != "" {
			c.net.funcs[fn] = via
			c.net.rounds.Changed(fn)
		}
	}, func() {
		for _, im := range impls {
			if _, done := c.net.ifaces[im.Method]; done {
				continue
			}
			if via := c.funcWaits(im.Impl); via != "" {
				c.net.ifaces[im.Method] = netio.Name(im.Method)
				c.net.rounds.Changed(im.Method)
			}
		}
	})
	for fn := range c.net.funcs {
		if obj, ok := fn.Object().(*types.Func); ok && fn.Parent() == nil {
			c.pass.ExportObjectFact(obj, &waitsOnNetwork{})
		}
	}
	for m := range c.net.ifaces {
		c.pass.ExportObjectFact(m, &waitsOnNetwork{})
	}
	return c.net
}

// usesNetworkWaits reports whether the package names a call of the network
// catalogue, a database round trip (catalog.IsDatabaseWait), or a function or interface method another package marked
// waitsOnNetwork: the only places a wait this pass adds can start.
func (c *checker) usesNetworkWaits() bool {
	return pkgscope.UsesFunc(c.pass.TypesInfo, func(fn *types.Func) bool {
		if catalog.NetworkCalls.Has(fn) || catalog.IsHTTPDoer(fn) || catalog.IsDatabaseWait(fn) {
			return true
		}
		o := fn.Origin()
		return o.Pkg() != nil && o.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(o, new(waitsOnNetwork))
	})
}

// funcWaits is the call by which fn waits on the network, or "".
func (c *checker) funcWaits(fn *ssa.Function) string {
	if fn == nil {
		return ""
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	c.net.rounds.Read(fn)
	if via, ok := c.net.funcs[fn]; ok {
		return via
	}
	if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != nil && obj.Pkg() != c.pass.Pkg &&
		c.pass.ImportObjectFact(obj, new(waitsOnNetwork)) {
		return netio.Name(obj)
	}
	return ""
}

// waitsIn is the first call in fn's body that waits on the network, or "":
// none when fn sets a deadline. A goroutine fn starts does not make it
// wait, nor does a function literal it hands to something that runs it
// later (time.AfterFunc, a function that starts a goroutine per call).
//
// A deadline fn sets bounds each attempt of a wait it hands to a retrier (a
// function that calls its function argument again after a pause:
// retry(schedule, func() error { return c.Do(req) }) with c's Timeout), not
// the retries: fn waits for as long as the schedule lasts.
func (c *checker) waitsIn(fn *ssa.Function) string {
	bounded, asked := false, false
	for common := range ssautil.WaitedCalls(fn) {
		via := c.callWaits(common)
		if via == "" {
			continue
		}
		// Asked only now: it walks the body, and most functions wait on
		// nothing.
		if !asked {
			bounded, asked = c.setsDeadline(fn), true
		}
		if !bounded {
			return via
		}
		if c.retriesFuncArg(common.StaticCallee()) {
			return via + ", retried by " + c.calleeLabel(common)
		}
	}
	return ""
}

// calleeLabel names the function a static call calls.
func (c *checker) calleeLabel(common *ssa.CallCommon) string {
	if obj, ok := common.StaticCallee().Object().(*types.Func); ok {
		return netio.Name(obj)
	}
	return common.StaticCallee().Name()
}

// retriesFuncArg reports whether fn, declared in this package, calls one of
// its function parameters inside a loop that also pauses (time.Sleep, a
// receive from time.After or a timer): a retrier, which runs the function
// again and again on a schedule.
func (c *checker) retriesFuncArg(fn *ssa.Function) bool {
	if fn == nil {
		return false
	}
	obj, _ := fn.Object().(*types.Func)
	fd := c.declOf(obj)
	if fd == nil || fd.Body == nil {
		return false
	}
	params := map[types.Object]bool{}
	for _, field := range fd.Type.Params.List {
		if _, isFunc := c.pass.TypesInfo.TypeOf(field.Type).Underlying().(*types.Signature); !isFunc {
			continue
		}
		for _, name := range field.Names {
			params[c.pass.TypesInfo.Defs[name]] = true
		}
	}
	if len(params) == 0 {
		return false
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if body := loopBody(n); body != nil && !found {
			found = c.callsParam(body, params) && c.pauses(body)
		}
		return !found
	})
	return found
}

// callsParam reports whether body calls one of params.
func (c *checker) callsParam(body *ast.BlockStmt, params map[types.Object]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && params[c.pass.TypesInfo.Uses[id]] {
				found = true
			}
		}
		return !found
	})
	return found
}

// pauses reports whether body sleeps or waits on the clock: a sleep of the
// catalogue (time.Sleep), or a receive of a time.Time (time.After,
// time.Tick, a timer's channel).
func (c *checker) pauses(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn := c.callee(n); fn != nil {
				_, found = catalog.Sleeps[catalog.Key(fn)]
			}
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW && isTimeValue(c.pass.TypesInfo.TypeOf(n))
		}
		return !found
	})
	return found
}

// callWaits is the call by which common waits on the network, or "". A
// network call of the catalogue (or of the project's additions) is the one
// whose netio path has no other step.
func (c *checker) callWaits(common *ssa.CallCommon) string {
	if c.onBoundedField(common) {
		return ""
	}
	if fn := calledFunc(common); fn != nil && catalog.NetworkCalls.Has(fn) && catalog.BoundsOwnWait(fn) {
		return "" // handed its own timeout (NextMsg(d), WaitTimeout(d)): a bounded wait
	}
	if path := c.netio.CallReaches(common); len(path) == 1 {
		return path[0] // also an HTTP client behind an interface (netio follows IsHTTPDoer)
	}
	if fn := calledFunc(common); catalog.IsDatabaseWait(fn) {
		return netio.Name(fn) // a query: the driver's read is behind interfaces netio does not follow
	}
	if common.IsInvoke() {
		m := common.Method
		c.net.rounds.Read(m)
		if via, ok := c.net.ifaces[m]; ok {
			return via
		}
		if m.Pkg() != nil && m.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(m, new(waitsOnNetwork)) {
			return netio.Name(m)
		}
		return ""
	}
	callee := common.StaticCallee()
	for _, fn := range c.net.tables.Of(common) {
		// A function looked up in one of the package's tables
		// (getCurrentDB()[FETCH_ALL].(func(string) …)(table)): any the key
		// names may be the one that runs.
		if via := c.funcWaits(fn); via != "" {
			return via
		}
	}
	if via := c.funcWaits(callee); via != "" {
		if obj, ok := callee.Object().(*types.Func); ok {
			return netio.Name(obj)
		}
		return via
	}
	if callee != nil && c.runsLater(callee) {
		return ""
	}
	for _, arg := range common.Args {
		for _, lit := range funcsOf(arg) {
			if via := c.funcWaits(lit); via != "" {
				return via
			}
		}
	}
	return ""
}

// runsLater reports whether callee runs its function argument in another
// goroutine, later: time.AfterFunc, or a function that starts a goroutine
// per call (a fact).
func (c *checker) runsLater(callee *ssa.Function) bool {
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return false
	}
	afterFunc := obj.Name() == "AfterFunc" && obj.Pkg() != nil && obj.Pkg().Path() == "time"
	return afterFunc || catalog.GoroutineStarters.Has(obj) || c.startsPerCall(obj) != ""
}

// funcsOf are the functions an argument is made of: a function or a
// literal (with or without captured variables), or the ones stored in the
// slice of a variadic call (Trigger(event, func(e) error { … })).
func funcsOf(v ssa.Value) []*ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		return []*ssa.Function{v}
	case *ssa.MakeClosure:
		if fn, ok := v.Fn.(*ssa.Function); ok {
			return []*ssa.Function{fn}
		}
	case *ssa.ChangeType:
		return funcsOf(v.X) // a literal passed as a named func type (jwt.Keyfunc)
	case *ssa.Slice:
		alloc, ok := v.X.(*ssa.Alloc)
		if !ok {
			return nil
		}
		var out []*ssa.Function
		for _, elem := range ssautil.StoredElements(alloc) {
			if fn := ssautil.FuncOf(elem); fn != nil {
				out = append(out, fn)
			}
		}
		return out
	}
	return nil
}

// onBoundedField reports whether the call is made on a field of a struct
// of this package (c.wrapped.Do(req)) that a function building the struct
// gives a deadline: the constructor that writes &Client{wrapped:
// http.Client with a Timeout} bounds every call on the field.
func (c *checker) onBoundedField(common *ssa.CallCommon) bool {
	recv := common.Value
	if !common.IsInvoke() {
		if len(common.Args) == 0 || common.Signature().Recv() == nil {
			return false
		}
		recv = common.Args[0]
	}
	if load, ok := recv.(*ssa.UnOp); ok {
		recv = load.X
	}
	var st types.Type
	switch f := recv.(type) {
	case *ssa.FieldAddr:
		st = f.X.Type()
	case *ssa.Field:
		st = f.X.Type()
	default:
		return false
	}
	if p, ok := st.Underlying().(*types.Pointer); ok {
		st = p.Elem()
	}
	named, ok := types.Unalias(st).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg {
		return false
	}
	return c.builtWithDeadline(named.Obj())
}

// builtWithDeadline reports whether a function of the package that writes
// a composite literal of the type sets a deadline (hasDeadline), once per
// type.
func (c *checker) builtWithDeadline(tn *types.TypeName) bool {
	if c.net.builders == nil {
		c.net.builders = map[*types.TypeName]bool{}
		for _, f := range c.pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil || !c.hasDeadline(fd.Body) {
					continue
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					if lit, ok := n.(*ast.CompositeLit); ok {
						if t, ok := types.Unalias(c.pass.TypesInfo.TypeOf(lit)).(*types.Named); ok {
							c.net.builders[t.Obj()] = true
						}
					}
					return true
				})
			}
		}
	}
	return c.net.builders[tn]
}

// setsDeadline reports whether fn's body sets a deadline (hasDeadline),
// once per function.
func (c *checker) setsDeadline(fn *ssa.Function) bool {
	bounded, ok := c.net.deadlines[fn]
	if !ok {
		if c.net.bodies == nil {
			c.net.bodies = c.funcBodies()
		}
		// Without debug information SSA keeps only the extent of a
		// function's syntax: find its body by where it starts.
		if syn := fn.Syntax(); syn != nil {
			bounded = c.hasDeadline(c.net.bodies[syn.Pos()])
		}
		c.net.deadlines[fn] = bounded
	}
	return bounded
}

// funcBodies are the bodies of the package's functions and function
// literals, by the position where each starts.
func (c *checker) funcBodies() map[token.Pos]*ast.BlockStmt {
	bodies := map[token.Pos]*ast.BlockStmt{}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if n.Body != nil {
					bodies[n.Pos()] = n.Body
				}
			case *ast.FuncLit:
				bodies[n.Pos()] = n.Body
			}
			return true
		})
	}
	return bodies
}

// ssaFuncAt is the SSA function of the function literal lit.
func (c *checker) ssaFuncAt(lit *ast.FuncLit) *ssa.Function {
	builder := c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder)
	for _, fn := range builder.SrcFuncs() {
		if fn.Parent() != nil && fn.Pos() == lit.Type.Func {
			return fn
		}
	}
	return nil
}

// calledFunc is the function or interface method a call names, or nil.
func calledFunc(common *ssa.CallCommon) *types.Func {
	if common.IsInvoke() {
		return common.Method
	}
	if callee := common.StaticCallee(); callee != nil {
		fn, _ := callee.Object().(*types.Func)
		return fn
	}
	return nil
}
