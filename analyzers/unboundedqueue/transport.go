package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"
)

// checkTransportPerRequest finds, in a function that runs once per request
// (runsPerRequest), an http.Transport made there: a composite literal or a
// Clone (http.DefaultTransport.(*http.Transport).Clone()). A transport is a
// connection pool, and its limits (MaxConnsPerHost, idle connections) hold
// per transport: one made per request reuses no connection and caps none,
// so the connections to the dependency grow with the requests. Silent when
// the transport is stored in a field or a package variable (a cache the
// first request fills) or made under a sync.Once.
func (c *checker) checkTransportPerRequest(fd *ast.FuncDecl) {
	if !c.runsPerRequest(fd) {
		return
	}
	ast.PreorderStack(fd.Body, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			if call, ok := stack[len(stack)-1].(*ast.CallExpr); ok && onceOnly.Has(c.callee(call)) {
				return false
			}
		case *ast.CompositeLit:
			if t := c.pass.TypesInfo.TypeOf(n); t != nil && isTransport(t) && !c.storedShared(fd, n, stack) {
				c.reportTransport(n.Pos(), "this http.Transport literal")
			}
		case *ast.CallExpr:
			if fn := c.callee(n); fn != nil && fn.FullName() == "(*net/http.Transport).Clone" && !c.storedShared(fd, n, stack) {
				c.reportTransport(n.Pos(), "this Clone of an http.Transport")
			}
		}
		return true
	})
}

func isTransport(t types.Type) bool {
	_, ptr := t.(*types.Pointer)
	return !ptr && isNamed(t, "net/http", "Transport")
}

// storedShared reports whether the transport e makes is kept for the
// requests that follow: assigned to a field, a package variable or a map
// entry, or to a local variable that the function then stores so, or hands
// to a function of its package that stores it (nightingale's dsProxy,
// building one per data source on a cache miss and handing it to
// transportPut, which keeps it in a map): a cache the first request fills.
func (c *checker) storedShared(fd *ast.FuncDecl, e ast.Expr, stack []ast.Node) bool {
	var value ast.Node = e
	i := len(stack) - 1
	if u, ok := stack[i].(*ast.UnaryExpr); ok && u.Op == token.AND {
		value, i = u, i-1
	}
	as, ok := stack[i].(*ast.AssignStmt)
	if !ok {
		return false
	}
	for k, r := range as.Rhs {
		if r != value || k >= len(as.Lhs) {
			continue
		}
		if c.keptTarget(as.Lhs[k]) {
			return true
		}
		if v := c.localVar(as.Lhs[k]); v != nil {
			return c.keptLater(fd, v)
		}
	}
	return false
}

// keptTarget reports whether lhs outlives the call: a field, a map entry or
// a package variable.
func (c *checker) keptTarget(lhs ast.Expr) bool {
	switch l := ast.Unparen(lhs).(type) {
	case *ast.SelectorExpr, *ast.IndexExpr:
		return true
	case *ast.Ident:
		obj := c.pass.TypesInfo.ObjectOf(l)
		return obj != nil && obj.Parent() == c.pass.Pkg.Scope()
	}
	return false
}

// keptLater reports whether fd stores the local v where it outlives the
// call (keptTarget), or hands it to a function of this package that does
// with the parameter it receives it in.
func (c *checker) keptLater(fd *ast.FuncDecl, v *types.Var) bool {
	kept := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for k, r := range n.Rhs {
				if k < len(n.Lhs) && c.localVar(r) == v && c.keptTarget(n.Lhs[k]) {
					kept = true
				}
			}
		case *ast.CallExpr:
			for k, arg := range n.Args {
				if c.localVar(arg) == v && c.storesParam(c.callee(n), k) {
					kept = true
				}
			}
		}
		return !kept
	})
	return kept
}

// storesParam reports whether fn, a function of this package, assigns its
// parameter i, as it is, to a field, a map entry or a package variable.
func (c *checker) storesParam(fn *types.Func, i int) bool {
	fd := c.declOf(fn)
	if fd == nil || i >= fn.Signature().Params().Len() {
		return false
	}
	param := fn.Signature().Params().At(i)
	stored := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if as, ok := n.(*ast.AssignStmt); ok {
			for k, r := range as.Rhs {
				if k < len(as.Lhs) && c.localVar(r) == param && c.keptTarget(as.Lhs[k]) {
					stored = true
				}
			}
		}
		return !stored
	})
	return stored
}

func (c *checker) reportTransport(pos token.Pos, what string) {
	c.report(pos, token.NoPos, "",
		"transport per request: %s makes a new connection pool on every request, so no connection is reused "+
			"and no limit holds (MaxConnsPerHost counts per transport): the connections to the dependency grow "+
			"with the requests; make one transport when the service starts, with MaxConnsPerHost, and share it", what)
}
