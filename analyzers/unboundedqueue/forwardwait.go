package unboundedqueue

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/guard"
)

// forwardsSlotWait marks a function that hands its context parameter, with
// no deadline added, to a wait for a pool slot: sqlf's
// (*Stmt).QueryAndClose(ctx, db, …) calling db.QueryContext(ctx, …), a
// store method running s.db.BeginTx(ctx, nil). A wait is whatever reaches
// one: the caller that passes it context.Background() waits for a slot
// with no deadline as surely as if it called QueryContext itself.
//
// Ctx is the index of the context parameter. Pool is the index of the
// parameter the wait is on (an interface such as sqlf's Executor, which a
// pool or a transaction may fill: the caller's argument decides), or -1
// when the wait is on a pool the function reaches itself (a field, a
// package variable). File and Line are the wait's, for related information.
// NeedsMax says that pool, with Pool -1, is one that queues only under a
// maximum the program sets (database/sql's, or a wrapper's: not pgxpool's,
// which has one by default).
type forwardsSlotWait struct {
	Ctx, Pool int
	Via       string
	File      string
	Line      int
	NeedsMax  bool
}

func (*forwardsSlotWait) AFact() {}
func (f *forwardsSlotWait) String() string {
	return fmt.Sprintf("forwardsSlotWait(ctx=%d, pool=%d, %s)", f.Ctx, f.Pool, f.Via)
}

// poolWaitMethods are the names of the slot waits of the catalogue's pool
// types (QueryContext, BeginTx, GetContext, pgxpool's Query…): a method of
// that name on an interface parameter waits for a slot when the caller
// hands it a pool. The semaphore's Acquire is not a pool's.
func (c *checker) poolWaitMethods() map[string]bool {
	if c.waitMethods == nil {
		c.waitMethods = catalog.SlotWaits.MethodNames()
		delete(c.waitMethods, "Acquire")
	}
	return c.waitMethods
}

// learnWaitForwarders exports forwardsSlotWait for this package's
// functions, to a fixed point: one that hands its context to a forwarder
// forwards it too. A function that sets up the schema is left out (it runs
// before the service serves, schema.go).
func (c *checker) learnWaitForwarders() {
	c.forwarders = map[*types.Func]*forwardsSlotWait{}
	decls := c.contextTakers()
	for changed := true; changed; {
		changed = false
		for _, fd := range decls {
			obj, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if obj == nil || c.forwarders[obj] != nil {
				continue
			}
			var found *forwardsSlotWait
			guard.At(fd.Pos(), func() {
				if !c.setsUpSchema(fd) {
					found = c.firstForwardedWait(fd)
				}
			})
			if found != nil {
				c.forwarders[obj] = found
				c.pass.ExportObjectFact(obj, found)
				changed = true
			}
		}
	}
}

// firstForwardedWait is the first wait in fd's own body (not in its
// function literals, which may run after it returns) that gets fd's
// context parameter with no deadline added, or nil.
func (c *checker) firstForwardedWait(fd *ast.FuncDecl) *forwardsSlotWait {
	params := paramIndex(c.pass.TypesInfo, fd)
	var found *forwardsSlotWait
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			ctx, pool, ok := c.slotWaitOperands(n)
			if !ok {
				return true
			}
			ctxParam := c.forwardedContext(fd, params, ctx, 0)
			if ctxParam == nil {
				return true
			}
			poolIdx, needsMax := -1, false
			if pool == nil {
				needsMax = c.forwarderOf(c.callee(n)).NeedsMax
			} else {
				needsMax = c.needsMaximum(pool)
			}
			if pool != nil {
				v := c.localVarOrParam(ast.Unparen(pool))
				i, isParam := params[v]
				switch {
				case isParam:
					poolIdx = i
				case !c.isPoolExpr(pool):
					return true // a transaction, a connection: already holds its slot
				}
			}
			found = &forwardsSlotWait{Ctx: params[ctxParam], Pool: poolIdx, Via: c.waitName(n), NeedsMax: needsMax}
			p := c.pass.Fset.Position(n.Pos())
			found.File, found.Line = p.Filename, p.Line
		}
		return true
	})
	return found
}

// slotWaitOperands says whether call waits for a pool slot, and on which
// operands: the context it is given and the pool expression (nil when the
// pool is fixed by the callee, a forwarder with Pool -1). A wait is a
// catalogue slot wait on a pool, a method of a slot wait's name on an
// interface (the caller's argument decides whether a pool fills it), or a
// call of a forwarder.
func (c *checker) slotWaitOperands(call *ast.CallExpr) (ctx, pool ast.Expr, ok bool) {
	fn := c.callee(call)
	if fn == nil {
		return nil, nil, false
	}
	if f := c.forwarderOf(fn); f != nil {
		args := c.callArgs(call, fn)
		if f.Ctx >= len(args) || f.Pool >= len(args) {
			return nil, nil, false
		}
		if f.Pool >= 0 {
			pool = args[f.Pool]
		}
		return args[f.Ctx], pool, true
	}
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel || len(call.Args) == 0 || !c.isContext(call.Args[0]) {
		return nil, nil, false
	}
	recv := c.pass.TypesInfo.TypeOf(sel.X)
	switch {
	case catalog.SlotWaits.Has(fn) && c.isPoolExpr(sel.X):
		return call.Args[0], sel.X, true
	case recv != nil && types.IsInterface(recv) && c.poolWaitMethods()[fn.Name()]:
		return call.Args[0], sel.X, true
	}
	return nil, nil, false
}

// callArgs are call's arguments in fn's parameter order: a method value
// called as a function (T.Method(recv, …)) is not followed.
func (c *checker) callArgs(call *ast.CallExpr, fn *types.Func) []ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := c.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			return nil
		}
	}
	return call.Args
}

// forwarderOf is fn's forwardsSlotWait, this package's or a fact, or nil.
func (c *checker) forwarderOf(fn *types.Func) *forwardsSlotWait {
	fn = fn.Origin()
	if f := c.forwarders[fn]; f != nil {
		return f
	}
	if fn.Pkg() == nil || fn.Pkg() == c.pass.Pkg {
		return nil
	}
	var f forwardsSlotWait
	if c.pass.ImportObjectFact(fn, &f) {
		return &f
	}
	return nil
}

// forwardedContext is the context parameter of fd that ctx is, through
// derivations that add no deadline (WithCancel, WithValue) and locals every
// value of which is one, or nil.
func (c *checker) forwardedContext(fd *ast.FuncDecl, params map[*types.Var]int, ctx ast.Expr, depth int) *types.Var {
	if depth > 8 {
		return nil
	}
	switch e := ast.Unparen(ctx).(type) {
	case *ast.CallExpr:
		if catalog.DerivedContexts.Has(c.callee(e)) && len(e.Args) > 0 {
			return c.forwardedContext(fd, params, e.Args[0], depth+1)
		}
	case *ast.Ident:
		v := c.localVarOrParam(e)
		if v == nil {
			return nil
		}
		if v.Pos() < fd.Body.Pos() || v.Pos() >= fd.Body.End() {
			if _, isParam := params[v]; !isParam || !isNamed(v.Type(), "context", "Context") {
				return nil // the receiver, a package variable
			}
			for _, rhs := range c.assignmentsTo(fd, v) {
				if !c.derivesFrom(rhs, v) && !c.isRootContext(rhs) {
					return nil // ctx, cancel := context.WithTimeout(ctx, …): a deadline of its own
				}
			}
			return v // reassigned at most to a context with no deadline either (if ctx == nil { ctx = context.Background() })
		}
		var from *types.Var
		for _, rhs := range c.assignmentsTo(fd, v) {
			p := c.forwardedContext(fd, params, rhs, depth+1)
			if p == nil || from != nil && p != from {
				return nil
			}
			from = p
		}
		return from
	}
	return nil
}

// derivesFrom reports whether e is v, or derived from v adding no deadline.
func (c *checker) derivesFrom(e ast.Expr, v *types.Var) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return c.pass.TypesInfo.ObjectOf(e) == v
	case *ast.CallExpr:
		return catalog.DerivedContexts.Has(c.callee(e)) && len(e.Args) > 0 && c.derivesFrom(e.Args[0], v)
	}
	return false
}

// isRootContext reports whether e is context.Background() or TODO().
func (c *checker) isRootContext(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && catalog.RootContexts.Has(c.callee(call))
}

// paramIndex maps fd's parameters (not its receiver) to their index.
func paramIndex(info *types.Info, fd *ast.FuncDecl) map[*types.Var]int {
	out := map[*types.Var]int{}
	i := 0
	for _, field := range fd.Type.Params.List {
		if len(field.Names) == 0 {
			i++
			continue
		}
		for _, name := range field.Names {
			if v, ok := info.Defs[name].(*types.Var); ok {
				out[v] = i
			}
			i++
		}
	}
	return out
}

// needsMaximum reports whether e is a pool that queues its callers only
// under a maximum the program sets: database/sql's, or a wrapper of it
// (not an interface, which the caller's argument fills; not one of
// catalog.DefaultBoundedPools).
func (c *checker) needsMaximum(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	return t != nil && !types.IsInterface(t) && holdsSQLPool(t) && !slices.Contains(catalog.DefaultBoundedPools, catalog.TypeKey(t))
}

func (c *checker) isPoolExpr(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	return t != nil && holdsSQLPool(t)
}

// waitName names the wait call for a message: the catalogue's name, or the
// forwarder's name and the wait it reaches.
func (c *checker) waitName(call *ast.CallExpr) string {
	fn := c.callee(call)
	if f := c.forwarderOf(fn); f != nil {
		return c.calleeName(call) + " → " + f.Via
	}
	return c.calleeName(call)
}

// forwardedRootedWait is call when it hands a context with no deadline,
// made in fd, to a function that waits for a pool slot with it
// (forwardsSlotWait), on a pool: the argument it passes for the pool when
// the wait is on a parameter, else the callee's own.
func (c *checker) forwardedRootedWait(fd *ast.FuncDecl, call *ast.CallExpr) *rootedWait {
	fn := c.callee(call)
	if fn == nil {
		return nil
	}
	f := c.forwarderOf(fn)
	if f == nil {
		return nil
	}
	args := c.callArgs(call, fn)
	if f.Ctx >= len(args) || f.Pool >= len(args) || f.Pool >= 0 && !c.isPoolExpr(args[f.Pool]) {
		return nil
	}
	root := c.rootContext(fd, args[f.Ctx], 0, false)
	if root == nil {
		return nil
	}
	needsMax := f.NeedsMax
	if f.Pool >= 0 {
		needsMax = c.needsMaximum(args[f.Pool])
	}
	return &rootedWait{call: call, root: root, fwd: f, needsMax: needsMax}
}
