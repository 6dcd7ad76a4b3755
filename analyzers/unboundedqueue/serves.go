package unboundedqueue

import (
	"go/ast"
	"go/types"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/guard"
)

// servesConns marks a function that serves connections for as long as its
// listener lives: a loop that accepts them (Accept on a listener: a method
// of that name returning a value and an error), a blocking serve of the
// catalogue (ServeLoops: (*http.Server).ListenAndServe, grpc's Serve…), or
// a call of such a function, to a fixed point and across packages (an FTP
// library's ListenAndServe whose Serve accepts in a loop). A goroutine that
// runs one is a server for the life of its listener: one per listener the
// configuration binds is bounded by the deployment, not by input.
type servesConns struct{}

func (*servesConns) AFact()         {}
func (*servesConns) String() string { return "servesConns" }

// learnServers exports servesConns for this package's functions that serve.
func (c *checker) learnServers() {
	c.servers = map[*types.Func]bool{}
	decls := c.funcDecls(false)
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if c.servers[d.obj] {
				continue
			}
			serves := false
			guard.At(d.fd.Pos(), func() { serves = c.servesIn(d.fd.Body, false) })
			if serves {
				c.servers[d.obj] = true
				c.pass.ExportObjectFact(d.obj, new(servesConns))
				changed = true
			}
		}
	}
}

// servesIn reports whether body, outside the function literals in it (which
// may run in goroutines of their own) unless lits, calls a function that
// serves or accepts connections in a loop.
func (c *checker) servesIn(body ast.Node, lits bool) bool {
	found := false
	var inLoop int
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return lits
		case *ast.GoStmt:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			inLoop++
			ast.Inspect(loopBody(n), visit)
			inLoop--
			return false
		case *ast.CallExpr:
			fn := c.callee(n)
			found = c.servesByCall(fn) || inLoop > 0 && isAccept(fn)
		}
		return !found
	}
	ast.Inspect(body, visit)
	return found
}

// servesByCall reports whether fn serves: the catalogue's, this package's
// or another's (a fact).
func (c *checker) servesByCall(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	return catalog.ServeLoops.Has(fn) || c.marked(fn, c.servers, new(servesConns))
}

// isAccept reports whether fn is a listener's Accept: a method of that name
// with no parameters returning a connection and an error.
func isAccept(fn *types.Func) bool {
	if fn == nil || fn.Name() != "Accept" {
		return false
	}
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Params().Len() != 0 || sig.Results().Len() != 2 {
		return false
	}
	return types.Identical(sig.Results().At(1).Type(), types.Universe.Lookup("error").Type())
}

// servesPerSource reports whether a goroutine's work serves connections:
// a function that serves, or a function literal that calls one.
func (c *checker) servesPerSource(work ast.Expr) bool {
	if lit, ok := ast.Unparen(work).(*ast.FuncLit); ok {
		return c.servesIn(lit.Body, false)
	}
	if id := identOf(work); id != nil {
		fn, _ := c.pass.TypesInfo.Uses[id].(*types.Func)
		return c.servesByCall(fn)
	}
	return false
}
