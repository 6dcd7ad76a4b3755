package unboundedqueue

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/catalog"
)

// checkWaits finds slot acquires whose context has no deadline (shape 4)
// in a request's own function, where they are (rootedWaitJudgedHere);
// elsewhere they are reported where a request reaches them (ctxless.go).
// main and init run once at start-up: only the handler literals they
// register are requests' own.
func (c *checker) checkWaits(fd *ast.FuncDecl) {
	if c.setsUpSchema(fd) {
		return // runs before the service serves: nothing queues behind it (schema.go)
	}
	oneShot := fd.Recv == nil && (fd.Name.Name == "main" || fd.Name.Name == "init")
	handed := c.contextParam(fd)
	// A handed context's waits are reported here only in a request's own
	// function; elsewhere where a request reaches them (ctxless.go).
	handedHere := handed != nil && !oneShot && c.judgedWhereItIs(fd)
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if handedHere {
			if how := c.contextlessWait(fd, call); how != "" && !c.onUnsharedPool(fd, call, stack) && !c.onUnlimitedEmbeddedPool(call) {
				c.emitOrPend(c.diagnostic(call.Pos(), handed.Pos(), "the context it was handed",
					"wait with no deadline: %s waits for a pool slot with no context, though %s was handed one (%s): "+
						"when every connection is taken, the caller waits for as long as the pool stays full and cannot be cancelled; %s",
					c.calleeName(call), fd.Name.Name, handed.Name(), how))
			}
		}
		if oneShot && !inLit(stack) {
			return true
		}
		if w := c.rootedWaitOf(fd, call, stack); w != nil && c.rootedWaitJudgedHere(fd, handed, stack) {
			c.reportRootedWait(w)
		}
		return true
	})
}

// rootedWait is a call that waits for a slot with a context from
// Background() or TODO() that has no deadline: the wait itself (a
// catalogue SlotWait) or a call of a function that forwards the context to
// one (forwardsSlotWait, fwd).
type rootedWait struct {
	call, root *ast.CallExpr
	fwd        *forwardsSlotWait
	// needsMax: the forwarded wait is on a database/sql pool or a wrapper of
	// one, which queues its callers only when it has a maximum.
	needsMax bool
}

// rootedWaitOf is call's wait with a context that has no deadline, or nil.
func (c *checker) rootedWaitOf(fd *ast.FuncDecl, call *ast.CallExpr, stack []ast.Node) *rootedWait {
	if !catalog.SlotWaits.Has(c.callee(call)) {
		return c.forwardedRootedWait(fd, call)
	}
	if c.forwardsToItself(fd, call) || c.acquiresAll(fd, call) ||
		c.onUnsharedPool(fd, call, stack) || c.onUnlimitedEmbeddedPool(call) {
		return nil
	}
	ctx := c.contextArg(call)
	if ctx == nil {
		return nil
	}
	if root := c.rootContext(fd, ctx, 0, false); root != nil {
		return &rootedWait{call: call, root: root}
	}
	return nil
}

// rootedWaitJudgedHere reports whether a wait with a context that has no
// deadline, in fd (in the function literal innermost on stack, if any), is
// reported where it is: it is in a request's own function (one that takes
// the request, a gRPC method, a literal handed the request, or a method of
// an interface another package of the program declares that was handed a
// context: judgedWhereItIs). A wait for a slot matters where requests queue
// on it; one only start-up or background work reaches queues behind no
// request (a watcher's lock on its ticker, a once-per-process check, a
// schema version read at start-up), so elsewhere the wait is reported where
// a request reaches it (ctxless.go), as a wait with no context.
//
// A function literal is judged by what runs it: a handler written in place
// is a request's own; a goroutine (go func() { … }()) runs beside the
// function that starts it and is judged with it; any other literal is a
// callback whose runner the analysis does not follow (pocketbase's
// model-delete hook, which every delete request runs) and is judged where
// it is.
func (c *checker) rootedWaitJudgedHere(fd *ast.FuncDecl, handed *types.Var, stack []ast.Node) bool {
	if lit, i := innermostLit(stack); lit != nil && (c.litHandlesRequest(lit) || !startedAsGoroutine(stack, i)) {
		return true
	}
	if fd.Recv == nil && (fd.Name.Name == "main" || fd.Name.Name == "init") {
		return false // its goroutines run in the background
	}
	return c.runsPerRequest(fd) || handed != nil && c.implementsImportedInterface(fd)
}

// innermostLit is the function literal innermost on stack and its index,
// or nil.
func innermostLit(stack []ast.Node) (*ast.FuncLit, int) {
	for i := len(stack) - 1; i >= 0; i-- {
		if lit, ok := stack[i].(*ast.FuncLit); ok {
			return lit, i
		}
	}
	return nil, -1
}

// startedAsGoroutine reports whether the literal at stack[i] is the
// function of a go statement: go func() { … }().
func startedAsGoroutine(stack []ast.Node, i int) bool {
	if i < 2 {
		return false
	}
	call, ok := stack[i-1].(*ast.CallExpr)
	if !ok || call.Fun != stack[i] {
		return false
	}
	_, ok = stack[i-2].(*ast.GoStmt)
	return ok
}

// litHandlesRequest reports whether lit takes an *http.Request or a
// framework's context that carries one: a handler written in place.
func (c *checker) litHandlesRequest(lit *ast.FuncLit) bool {
	sig, ok := c.pass.TypesInfo.TypeOf(lit).(*types.Signature)
	return ok && takesRequest(sig)
}

// reportRootedWait reports w where it is.
func (c *checker) reportRootedWait(w *rootedWait) {
	if w.fwd == nil {
		c.report(w.call.Pos(), w.root.Pos(), "the context starts here, with no deadline",
			"wait with no deadline: %s waits for a slot with a context from %s() that has no deadline, "+
				"so callers queue for as long as every slot stays taken; derive it with context.WithTimeout "+
				"(the lane's queue timeout) or pass the caller's context",
			c.calleeName(w.call), c.calleeName(w.root))
		return
	}
	d := c.diagnostic(w.call.Pos(), w.root.Pos(), "the context starts here, with no deadline",
		"wait with no deadline: %s waits for a pool slot (%s, at %s:%d) with a context from %s() that has no deadline, "+
			"so callers queue for as long as every slot stays taken; derive it with context.WithTimeout "+
			"(the lane's queue timeout) or pass the caller's context",
		c.calleeName(w.call), w.fwd.Via, filepath.Base(w.fwd.File), w.fwd.Line, c.calleeName(w.root))
	if at := c.posOf(w.fwd.File, w.fwd.Line); at.IsValid() {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: at, Message: "the wait for a slot"})
	}
	if w.needsMax {
		// A wait for a slot needs a maximum: decided where one is known,
		// as for a wait that ignores its context (emitOrPend).
		c.emitOrPend(d)
		return
	}
	c.emit(d)
}

// acquiresAll reports whether call takes a weighted semaphore's whole
// capacity, sem.Acquire(ctx, n) on a local sem := semaphore.NewWeighted(n):
// it returns once every slot taken before it is released — a join of the
// work already started, as errgroup's Wait is, not a queue for a slot.
func (c *checker) acquiresAll(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 2 {
		return false
	}
	sem := c.localVar(sel.X)
	if sem == nil {
		return false
	}
	made := c.assignmentsTo(fd, sem)
	if len(made) != 1 || made[0] == nil {
		return false
	}
	mk, ok := ast.Unparen(made[0]).(*ast.CallExpr)
	if !ok || len(mk.Args) != 1 || !catalog.WeightedSemaphores.Has(c.callee(mk)) {
		return false
	}
	return c.sameValue(mk.Args[0], call.Args[1])
}

// onUnsharedPool reports whether call waits on a pool this function has
// just opened and not yet shared: db := sql.Open(…) then
// db.ExecContext(context.TODO(), "SET sql_mode …") before db is stored,
// returned or handed to anyone. Every slot of that pool is free or held
// by this function's own finished calls, so the wait queues behind
// nobody. Only method calls on the pool come before the wait, and none in
// a go statement or a function literal; the wait is not in a function
// literal nor in a loop that shares the pool on an earlier round (a pool
// declared inside the loop is a new one each round).
func (c *checker) onUnsharedPool(fd *ast.FuncDecl, call *ast.CallExpr, stack []ast.Node) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || inLit(stack) {
		return false
	}
	pool := c.localVar(sel.X)
	if pool == nil || !c.openedHere(fd, pool) {
		return false
	}
	shared := c.sharingUses(fd, pool)
	for _, use := range shared {
		if use.Pos() < call.Pos() {
			return false
		}
	}
	for _, n := range stack {
		loop := loopBody(n)
		if loop == nil || loop.Pos() <= pool.Pos() && pool.Pos() < loop.End() {
			continue // a pool declared in the loop is a new one each round
		}
		if slices.ContainsFunc(shared, func(u *ast.Ident) bool {
			return loop.Pos() <= u.Pos() && u.Pos() < loop.End()
		}) {
			return false
		}
	}
	return true
}

// openedHere reports whether every value fd assigns to v comes from a
// call that opens a pool: the catalogue's PoolOpeners, or a function that
// hands back a fresh one (opensUnboundedDB, in any package: pgx's
// stdlib.OpenDB, which nakama's migrate step queries before handing the
// pool to anyone).
func (c *checker) openedHere(fd *ast.FuncDecl, v *types.Var) bool {
	made := c.assignmentsTo(fd, v)
	for _, rhs := range made {
		mk, ok := ast.Unparen(rhs).(*ast.CallExpr)
		if !ok {
			return false
		}
		fn := c.callee(mk)
		if fn == nil {
			return false
		}
		if _, opens := catalog.PoolOpeners[fn.FullName()]; opens {
			continue
		}
		if _, _, _, _, opens := c.openerOf(mk); !opens {
			return false
		}
	}
	return len(made) > 0
}

// sharingUses are the uses of v in fd other than as the receiver of a
// method called right there: a store, an argument, a return, a capture by
// a function literal or a go statement.
func (c *checker) sharingUses(fd *ast.FuncDecl, v *types.Var) []*ast.Ident {
	var out []*ast.Ident
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || c.pass.TypesInfo.Uses[id] != v {
			return true
		}
		if !c.methodReceiver(id, stack) || inGoOrLiteral(stack) {
			out = append(out, id)
		}
		return true
	})
	return out
}

// methodReceiver reports whether id, below stack, is the X of a selector
// that is called: id.Method(…).
func (c *checker) methodReceiver(id *ast.Ident, stack []ast.Node) bool {
	if len(stack) < 2 {
		return false
	}
	sel, ok := stack[len(stack)-1].(*ast.SelectorExpr)
	if !ok || sel.X != id {
		return false
	}
	call, ok := stack[len(stack)-2].(*ast.CallExpr)
	return ok && call.Fun == sel
}

func inGoOrLiteral(stack []ast.Node) bool {
	return slices.ContainsFunc(stack, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.GoStmt, *ast.FuncLit:
			return true
		}
		return false
	})
}

// loopBody is n's body when n is a for or range statement, else nil.
func loopBody(n ast.Node) *ast.BlockStmt {
	switch l := n.(type) {
	case *ast.ForStmt:
		return l.Body
	case *ast.RangeStmt:
		return l.Body
	}
	return nil
}

// sameValue reports whether a and b are the same constant or the same
// variable.
func (c *checker) sameValue(a, b ast.Expr) bool {
	info := c.pass.TypesInfo
	if ta, tb := info.Types[a], info.Types[b]; ta.Value != nil && tb.Value != nil {
		return constant.Compare(ta.Value, token.EQL, tb.Value)
	}
	ia, okA := ast.Unparen(a).(*ast.Ident)
	ib, okB := ast.Unparen(b).(*ast.Ident)
	return okA && okB && info.ObjectOf(ia) != nil && info.ObjectOf(ia) == info.ObjectOf(ib)
}

func (c *checker) contextArg(call *ast.CallExpr) ast.Expr {
	for _, a := range call.Args {
		if t := c.pass.TypesInfo.TypeOf(a); t != nil && isNamed(t, "context", "Context") {
			return a
		}
	}
	return nil
}

// rootContext returns the context.Background() or TODO() call that ctx
// comes from, through derivations that add no deadline, or nil if ctx has a
// deadline or comes from somewhere this function cannot see (a parameter,
// a field, a request): the escape policy trusts those. With wrappers, a
// call of another function that returns a context made from its context
// argument (headers.SetCallerInfo(context.Background(), info) adds values)
// is followed too.
func (c *checker) rootContext(fd *ast.FuncDecl, ctx ast.Expr, depth int, wrappers bool) *ast.CallExpr {
	if depth > 8 {
		return nil
	}
	switch e := ast.Unparen(ctx).(type) {
	case *ast.CallExpr:
		fn := c.callee(e)
		switch {
		case catalog.RootContexts.Has(fn):
			return e
		case catalog.DerivedContexts.Has(fn) && len(e.Args) > 0:
			return c.rootContext(fd, e.Args[0], depth+1, wrappers)
		case wrappers && !catalog.DeadlineContexts.Has(fn) && c.isContext(e):
			if arg := c.contextArg(e); arg != nil {
				return c.rootContext(fd, arg, depth+1, wrappers)
			}
		}
	case *ast.Ident:
		v := c.localVar(e)
		if v == nil || v.Pos() < fd.Body.Pos() || v.Pos() >= fd.Body.End() {
			return nil // a parameter or a package variable
		}
		key := varQuestion{v, wrappers}
		if root, ok := c.ctxRoots[key]; ok {
			return root // asked already, or being asked (selfDerived)
		}
		c.ctxRoots[key] = selfDerived
		root := c.varRootContext(fd, v, depth, wrappers)
		c.ctxRoots[key] = root
		return root
	}
	return nil
}

// selfDerived stands, while a variable's root is being decided, for a
// value derived from the variable itself (ctx = context.WithValue(ctx, …)):
// it adds no root of its own. Each variable is asked once: asking again for
// every value derived from it took time exponential in their number.
var selfDerived = &ast.CallExpr{}

// varQuestion is a local variable asked about, and how.
type varQuestion struct {
	v        *types.Var
	wrappers bool
}

// varRootContext is the root every value assigned to v comes from, or nil.
func (c *checker) varRootContext(fd *ast.FuncDecl, v *types.Var, depth int, wrappers bool) *ast.CallExpr {
	var root *ast.CallExpr
	for _, rhs := range c.assignmentsTo(fd, v) {
		switch r := c.rootContext(fd, rhs, depth+1, wrappers); r {
		case nil:
			return nil
		case selfDerived:
		default:
			if root == nil {
				root = r
			}
		}
	}
	return root
}

// assignmentsTo are the expressions assigned to v in fd; a multi-value call
// counts as the expression for each of its results.
func (c *checker) assignmentsTo(fd *ast.FuncDecl, v *types.Var) []ast.Expr {
	var out []ast.Expr
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok || c.pass.TypesInfo.ObjectOf(id) != v {
					continue
				}
				switch {
				case n.Tok != token.ASSIGN && n.Tok != token.DEFINE:
					out = append(out, nil)
				case len(n.Rhs) == len(n.Lhs):
					out = append(out, n.Rhs[i])
				default:
					out = append(out, n.Rhs[0])
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if c.pass.TypesInfo.Defs[name] == v {
					if i < len(n.Values) {
						out = append(out, n.Values[i])
					} else {
						out = append(out, nil) // zero: nil context
					}
				}
			}
		}
		return true
	})
	return out
}

// forwardsToItself reports whether call is a method of fd's own receiver:
// the pool type's context-free variant forwarding to its context method,
// as (*sql.DB).Query calls QueryContext(context.Background()). Its callers
// are the ones who chose not to pass a context.
func (c *checker) forwardsToItself(fd *ast.FuncDecl, call *ast.CallExpr) bool {
	if fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && c.pass.TypesInfo.Uses[id] == c.pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
}

// contextParam is fd's parameter that hands it a context (a
// context.Context, or a framework's context that is one or carries one:
// gin's *Context), or nil.
func (c *checker) contextParam(fd *ast.FuncDecl) *types.Var {
	for _, field := range fd.Type.Params.List {
		for _, name := range field.Names {
			v, _ := c.pass.TypesInfo.Defs[name].(*types.Var)
			if v != nil && (isNamed(v.Type(), "context", "Context") || carriesContext(v.Type()) || isContextLike(v.Type())) {
				return v
			}
		}
	}
	return nil
}

// isContextLike reports whether t has context.Context's Done and Err
// methods: a framework's context that implements it (gin's *Context).
func isContextLike(t types.Type) bool {
	for _, name := range []string{"Done", "Err", "Deadline"} {
		obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
		if _, ok := obj.(*types.Func); !ok {
			return false
		}
	}
	return true
}

// contextlessWait says how to give call a context when it waits for a pool
// slot with none: a database/sql or sqlx method without the Context suffix,
// or an ORM round trip on a handle none of whose builders attached one
// (ur.data.DB.Transaction(…), db.Where(…).First(…)). "" when call takes one
// or is not such a wait. An ORM handle that is a parameter may carry its
// caller's context and is trusted.
func (c *checker) contextlessWait(fd *ast.FuncDecl, call *ast.CallExpr) string {
	fn := c.callee(call)
	if fn == nil || fn.Name() == "Commit" || fn.Name() == "Rollback" {
		return "" // they end a transaction on the connection it holds
	}
	if catalog.ContextlessSlotWaits.Has(fn) {
		return "call " + fn.Name() + "Context with it"
	}
	if !catalog.DatabaseWaits.Has(fn) || c.contextArg(call) != nil {
		return ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !c.isORMHandle(sel.X) || c.handleHasContext(fd, sel.X, 0) {
		return ""
	}
	return "attach it to the handle first (db.WithContext(ctx), engine.Context(ctx))"
}

func (c *checker) isORMHandle(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	return t != nil && isORMHandleType(t)
}

// everyValueHasContext: every value assigned to the local handle v may
// carry a context.
func (c *checker) everyValueHasContext(fd *ast.FuncDecl, v *types.Var, depth int) bool {
	for _, rhs := range c.assignmentsTo(fd, v) {
		if rhs == nil || !c.handleHasContext(fd, rhs, depth+1) {
			return false
		}
	}
	return true
}

// handleHasContext reports whether the ORM handle e may carry a context: a
// builder chain with a context setter in it, a parameter (its caller's), or
// a local variable every value of which does.
func (c *checker) handleHasContext(fd *ast.FuncDecl, e ast.Expr, depth int) bool {
	if depth > 8 {
		return true
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		if catalog.ORMContextSetters.Has(c.callee(x)) {
			return true
		}
		if fn := c.callee(x); fn != nil {
			if hc, ok := catalog.HeldCalls[fn.FullName()]; ok && !hc.OnReceiver {
				return true // a transaction (gorm's Begin): its queries run on the connection it holds
			}
		}
		if c.sharedHandleGetter(c.callee(x)) {
			return false // a getter of the stored handle: the shared one, with none
		}
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if !ok || !c.isORMHandle(sel.X) {
			return true // a function that returns a handle: what it attached is unknown
		}
		return c.handleHasContext(fd, sel.X, depth+1)
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.ObjectOf(x).(*types.Var)
		if !ok || v.Parent() == c.pass.Pkg.Scope() {
			return false // a package variable: the shared handle, with none
		}
		if v.Pos() < fd.Body.Pos() || v.Pos() >= fd.Body.End() {
			return true // a parameter, or a literal's: the caller's handle
		}
		if has, ok := c.handleContexts[v]; ok {
			return has // asked already, or being asked: a value made from the handle itself keeps what it has
		}
		c.handleContexts[v] = true
		has := c.everyValueHasContext(fd, v, depth)
		c.handleContexts[v] = has
		return has
	case *ast.SelectorExpr:
		_, isField := c.pass.TypesInfo.ObjectOf(x.Sel).(*types.Var)
		return !isField // a field: the handle the struct was built with, with none
	}
	return true
}
