package unboundedqueue

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/bhlint/bhlint/internal/catalog"
)

// checkWaits finds slot acquires whose context has no deadline (shape 4).
// main and init run once at start-up and are not checked; the function
// literals they start (handlers, workers) are.
func (c *checker) checkWaits(fd *ast.FuncDecl) {
	oneShot := fd.Recv == nil && (fd.Name.Name == "main" || fd.Name.Name == "init")
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || !catalog.SlotWaits.Has(c.callee(call)) {
			return true
		}
		if oneShot && !inLit(stack) || c.forwardsToItself(fd, call) || c.acquiresAll(fd, call) {
			return true
		}
		ctx := c.contextArg(call)
		if ctx == nil {
			return true
		}
		if root := c.rootContext(fd, ctx, 0, false); root != nil {
			c.report(call.Pos(), root.Pos(), "the context starts here, with no deadline",
				"wait with no deadline: %s waits for a slot with a context from %s() that has no deadline, "+
					"so callers queue for as long as every slot stays taken; derive it with context.WithTimeout "+
					"(the lane's queue timeout) or pass the caller's context",
				c.calleeName(call), c.calleeName(root))
		}
		return true
	})
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
		var root *ast.CallExpr
		all := true
		for _, rhs := range c.assignmentsTo(fd, v) {
			r := c.rootContext(fd, rhs, depth+1, wrappers)
			if r == nil {
				all = false
			} else if root == nil {
				root = r
			}
		}
		if all {
			return root
		}
	}
	return nil
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
