package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/netio"
)

// onceOnly are the calls that run their function argument at most once at
// a time per key or once ever: a goroutine started in it is not one per
// request.
var onceOnly = catalog.NewTable("(*sync.Once).Do", "sync.OnceFunc", "sync.OnceValue", "sync.OnceValues",
	"(*golang.org/x/sync/singleflight.Group).Do", "(*golang.org/x/sync/singleflight.Group).DoChan")

// checkDetachedPerRequest finds, in a function that runs once per request
// (runsPerRequest), a goroutine started outside any loop — a go statement,
// or a call of a function that starts one per call with a function literal
// as its work (routine.FireAndForget(func() { … })) — whose work waits on
// the network with no deadline and no cancellation, with nothing capping
// how many run: when the remote end hangs, every request leaves one more
// goroutine parked. Silent when a slot is taken or a claim is made before
// it (a limiter, a semaphore, CompareAndSwap, TryLock, LoadOrStore), when
// it runs under a sync.Once or singleflight, when an if around it tests
// time (a minimum interval), when the goroutine takes a slot first, when
// the function waits for it, and when its work has a deadline (a context
// with a timeout, a Timeout field, SetDeadline) or uses a context that
// comes from the caller (the request's: it ends with the request).
func (c *checker) checkDetachedPerRequest(fd *ast.FuncDecl) {
	if !c.runsPerRequest(fd) {
		return
	}
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return false // a goroutine per item: checkFanOut's
		case *ast.FuncLit:
			if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok && onceOnly.Has(c.callee(call)) {
				return false
			}
		case *ast.GoStmt:
			if fn := c.callee(n.Call); fn != nil || isFuncLit(n.Call.Fun) {
				c.checkDetached(fd, n, stack, n.Call.Fun, n.Call.Args, "go statement")
			}
			return false // what it runs is the goroutine's, not the request's
		case *ast.CallExpr:
			fn := c.callee(n)
			if len(n.Args) > 0 && catalog.GoroutineStarters.Has(fn) && isFuncLit(n.Args[0]) {
				c.checkDetached(fd, n, stack, n.Args[0], nil, c.calleeName(n))
				return false
			}
			if where := c.startsPerCall(fn); where != "" {
				for _, a := range n.Args {
					if isFuncLit(a) {
						c.checkDetached(fd, n, stack, a, nil, c.calleeName(n)+" call (it starts a goroutine at "+where+")")
						return false
					}
				}
			}
		}
		return true
	})
}

func isFuncLit(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.FuncLit)
	return ok
}

// checkDetached checks one goroutine started per request: fun is what it
// runs (a function literal or a function), args the go statement's
// arguments.
func (c *checker) checkDetached(fd *ast.FuncDecl, start ast.Node, stack []ast.Node, fun ast.Expr, args []ast.Expr, how string) {
	if c.rateGuarded(stack) {
		return
	}
	enclosing := fd.Body
	for _, n := range stack {
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			body = n.Body
		case *ast.FuncLit:
			body = n.Body
		default:
			continue
		}
		if c.takesSlot(body, start.Pos()) || c.claimsBefore(body, start.Pos()) {
			return
		}
		enclosing = body
	}
	if c.takesSlot(fd.Body, start.Pos()) || c.claimsBefore(fd.Body, start.Pos()) {
		return
	}
	var work *ast.BlockStmt
	var workDecl *ast.FuncDecl
	if lit, ok := ast.Unparen(fun).(*ast.FuncLit); ok {
		work = lit.Body
	} else {
		workDecl = c.declOf(c.calleeOfExpr(fun))
		if workDecl != nil {
			work = workDecl.Body
		}
	}
	if c.slotTakenInside(work) || c.takesSlotByCall(c.calleeOfExpr(fun)) || c.joinedAfter(enclosing, start, work) {
		return
	}
	via := c.workWaits(fun)
	if via == "" || c.hasDeadline(work) || c.cancelledByCaller(fd, args, work, workDecl) {
		return
	}
	c.report(start.Pos(), token.NoPos, "",
		"goroutine per request: this %s starts, on every request, a goroutine that waits on the network (%s) "+
			"with no deadline and no cancellation, and nothing caps how many: when the remote end hangs, they pile up; "+
			"take a slot before starting it (a semaphore, a worker pool) or give the work a context with a timeout",
		how, via)
}

// calleeOfExpr is the function a go statement's function expression names
// (f, pkg.F, x.Method), or nil.
func (c *checker) calleeOfExpr(fun ast.Expr) *types.Func {
	switch f := ast.Unparen(fun).(type) {
	case *ast.Ident:
		fn, _ := c.pass.TypesInfo.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := c.pass.TypesInfo.Uses[f.Sel].(*types.Func)
		return fn
	}
	return nil
}

// declOf is the declaration of fn in this package, or nil.
func (c *checker) declOf(fn *types.Func) *ast.FuncDecl {
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return nil
	}
	for _, file := range c.pass.Files {
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && c.pass.TypesInfo.Defs[fd.Name] == fn {
				return fd
			}
		}
	}
	return nil
}

// workWaits is the call by which the goroutine's work waits on the
// network, or "".
func (c *checker) workWaits(fun ast.Expr) string {
	if !c.serving {
		return ""
	}
	c.learnNetworkWaits(true)
	if lit, ok := ast.Unparen(fun).(*ast.FuncLit); ok {
		return c.funcWaits(c.ssaFuncAt(lit))
	}
	fn := c.calleeOfExpr(fun)
	if fn == nil {
		return ""
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		// An interface method waits when an implementation in its own
		// package does (waitsOnNetwork, as callWaits reads it).
		c.net.rounds.Read(fn)
		if via, ok := c.net.ifaces[fn]; ok {
			return via
		}
		if fn.Pkg() != nil && fn.Pkg() != c.pass.Pkg && c.pass.ImportObjectFact(fn, new(waitsOnNetwork)) {
			return netio.Name(fn)
		}
		return ""
	}
	prog := c.pass.ResultOf[lazyssa.Analyzer].(*lazyssa.Builder).Package().Prog
	return c.funcWaits(prog.FuncValue(fn.Origin()))
}

// claimsBefore reports whether body, before pos and outside function
// literals, makes a claim that lets one caller through at a time or once
// per key: CompareAndSwap, TryLock, LoadOrStore, TryAcquire (an in-flight
// guard, a dedupe).
func (c *checker) claimsBefore(body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found || n == nil || n.Pos() >= pos {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn := c.callee(n); fn != nil && fn.Signature().Recv() != nil {
				switch fn.Name() {
				case "CompareAndSwap", "TryLock", "LoadOrStore", "TryAcquire", "TryRLock":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// joinedAfter reports whether body, after the goroutine's start, waits for
// it: a WaitGroup or errgroup Wait, or a receive — unless the channel is
// also sent on by another function literal (a timer's callback: the wait
// gives up and leaves the goroutine running) or the receive sits in a select
// with a case that fires on time or on a context.
func (c *checker) joinedAfter(body *ast.BlockStmt, start ast.Node, work *ast.BlockStmt) bool {
	senders := map[string]int{} // channel → function literals, other than the work, that send on it
	ast.Inspect(body, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok || work != nil && lit.Body == work {
			return true
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if s, ok := n.(*ast.SendStmt); ok {
				senders[types.ExprString(s.Chan)]++
			}
			return true
		})
		return false
	})
	found := false
	ast.PreorderStack(body, nil, func(n ast.Node, stack []ast.Node) bool {
		if found || n.End() <= start.End() {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			if selectGivesUp(n) {
				return false
			}
		case *ast.UnaryExpr:
			found = n.Op == token.ARROW && n.Pos() >= start.End() && senders[types.ExprString(n.X)] == 0
		case *ast.CallExpr:
			fn := c.callee(n)
			found = n.Pos() >= start.End() && fn != nil &&
				(catalog.Key(fn) == "(*sync.WaitGroup).Wait" || catalog.Key(fn) == "(*golang.org/x/sync/errgroup.Group).Wait")
		}
		return !found
	})
	return found
}

// selectGivesUp reports whether a select has a default or a case that
// receives from a call (time.After, ctx.Done()).
func selectGivesUp(sel *ast.SelectStmt) bool {
	for _, cl := range sel.Body.List {
		if givesUp(cl.(*ast.CommClause)) {
			return true
		}
	}
	return false
}

// hasDeadline reports whether the work sets itself a deadline: a context
// with a timeout or deadline, a Timeout field (http.Client{Timeout: d},
// net.Dialer), or a SetDeadline on a connection.
func (c *checker) hasDeadline(work *ast.BlockStmt) bool {
	if work == nil {
		return false
	}
	found := false
	ast.Inspect(work, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := c.callee(n)
			found = catalog.DeadlineContexts.Has(fn) || fn != nil &&
				(fn.Name() == "SetDeadline" || fn.Name() == "SetReadDeadline" || fn.Name() == "SetWriteDeadline")
		case *ast.KeyValueExpr:
			id, ok := n.Key.(*ast.Ident)
			found = ok && id.Name == "Timeout"
		case *ast.SelectorExpr:
			found = n.Sel.Name == "Timeout" && c.isAssigned(work, n)
		}
		return !found
	})
	return found
}

// isAssigned reports whether sel is the target of an assignment in body.
func (c *checker) isAssigned(body *ast.BlockStmt, sel *ast.SelectorExpr) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				found = found || l == sel
			}
		}
		return !found
	})
	return found
}

// cancelledByCaller reports whether the work uses a context that comes from
// somewhere the function cannot see (a parameter, the request, a field):
// the request's context ends with the request, and the escape policy
// trusts the others. A context made from context.Background() or TODO(),
// directly or through derivations and wrappers that add no deadline, does
// not count; a work with no context at all cannot be cancelled.
func (c *checker) cancelledByCaller(fd *ast.FuncDecl, args []ast.Expr, work *ast.BlockStmt, workDecl *ast.FuncDecl) bool {
	for _, a := range args {
		if c.isContext(a) && c.rootContext(fd, a, 0, true) == nil {
			return true
		}
	}
	if work == nil {
		return false
	}
	in := fd
	if workDecl != nil {
		in = workDecl
	}
	found := false
	ast.Inspect(work, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		for _, a := range call.Args {
			if !c.isContext(a) || workDecl != nil && c.isParamOf(workDecl, a) {
				continue // a parameter of the work: its argument was looked at above
			}
			if c.rootContext(in, a, 0, true) == nil {
				found = true
			}
		}
		return !found
	})
	return found
}

func (c *checker) isContext(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	return t != nil && isNamed(t, "context", "Context")
}

func (c *checker) isParamOf(fd *ast.FuncDecl, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	obj := c.pass.TypesInfo.ObjectOf(id)
	return obj != nil && obj.Pos() >= fd.Type.Pos() && obj.Pos() < fd.Type.End()
}

// runsPerRequest reports whether fd runs once per request: it takes the
// request (handlesRequest) or has the shape of a gRPC method (an exported
// method taking a context and a generated request message, returning a
// response and an error).
func (c *checker) runsPerRequest(fd *ast.FuncDecl) bool {
	if c.handlesRequest(fd) {
		return true
	}
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil || !fn.Exported() || fn.Signature().Recv() == nil {
		return false
	}
	sig := fn.Signature()
	if sig.Params().Len() != 2 || sig.Results().Len() != 2 || sig.Variadic() {
		return false
	}
	if !isNamed(sig.Params().At(0).Type(), "context", "Context") ||
		!types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type()) {
		return false
	}
	req, ok := sig.Params().At(1).Type().(*types.Pointer)
	if !ok {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(req, false, nil, "ProtoReflect")
	_, isMethod := obj.(*types.Func)
	return isMethod
}

// carriesRequest reports whether a parameter of type t brings the function
// an incoming request: an *http.Request, or a framework's request context
// that holds both the request and its response writer (gin's *Context, a
// struct with both fields, embedded or not; echo's Context, an interface
// with a method for each).
func carriesRequest(t types.Type) bool {
	if isNamed(t, "net/http", "Request") {
		return true
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	var req, resp bool
	switch u := named.Underlying().(type) {
	case *types.Struct:
		req, resp = structCarries(u, 0)
	case *types.Interface:
		for i := range u.NumMethods() {
			sig := u.Method(i).Signature()
			if sig.Params().Len() != 0 || sig.Results().Len() != 1 {
				continue
			}
			r := sig.Results().At(0).Type()
			req = req || isNamed(r, "net/http", "Request")
			resp = resp || isResponseWriter(r)
		}
	}
	return req && resp
}

func structCarries(st *types.Struct, depth int) (req, resp bool) {
	for i := range st.NumFields() {
		f := st.Field(i)
		req = req || isNamed(f.Type(), "net/http", "Request")
		resp = resp || isResponseWriter(f.Type())
		if f.Embedded() && depth < 2 {
			t := f.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if inner, ok := t.Underlying().(*types.Struct); ok {
				r, w := structCarries(inner, depth+1)
				req, resp = req || r, resp || w
			}
		}
	}
	return req, resp
}

// isResponseWriter reports whether t is net/http's ResponseWriter or a type
// with its methods (gin's ResponseWriter, echo's *Response).
func isResponseWriter(t types.Type) bool {
	if isNamed(t, "net/http", "ResponseWriter") {
		return true
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "WriteHeader")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	h, _, _ := types.LookupFieldOrMethod(t, true, nil, "Header")
	_, ok = h.(*types.Func)
	return ok && fn.Signature().Params().Len() == 1
}
