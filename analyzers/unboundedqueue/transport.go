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
			if t := c.pass.TypesInfo.TypeOf(n); t != nil && isTransport(t) && !c.storedShared(n, stack) {
				c.reportTransport(n.Pos(), "this http.Transport literal")
			}
		case *ast.CallExpr:
			if fn := c.callee(n); fn != nil && fn.FullName() == "(*net/http.Transport).Clone" && !c.storedShared(n, stack) {
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

// storedShared reports whether the transport e makes is assigned straight
// to a field or a package variable: shared by the requests that follow.
func (c *checker) storedShared(e ast.Expr, stack []ast.Node) bool {
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
		switch l := ast.Unparen(as.Lhs[k]).(type) {
		case *ast.SelectorExpr:
			return true
		case *ast.Ident:
			obj := c.pass.TypesInfo.ObjectOf(l)
			return obj != nil && obj.Parent() == c.pass.Pkg.Scope()
		}
	}
	return false
}

func (c *checker) reportTransport(pos token.Pos, what string) {
	c.report(pos, token.NoPos, "",
		"transport per request: %s makes a new connection pool on every request, so no connection is reused "+
			"and no limit holds (MaxConnsPerHost counts per transport): the connections to the dependency grow "+
			"with the requests; make one transport when the service starts, with MaxConnsPerHost, and share it", what)
}
