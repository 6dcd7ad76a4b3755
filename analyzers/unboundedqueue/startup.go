package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/entrypoints"
)

// A list fixed at start-up is not input: a fan-out over it starts as many
// goroutines as the process was started with, not as many as its callers
// send. The list is fixed at start-up when
//   - the loop is in code that runs only at start-up (startupFuncs), over a
//     slice or map it was handed or built there;
//   - the loop is in a command's function literal (one stored in a
//     framework's field, entrypoints.CommandField: cobra's RunE), which the
//     framework runs once, when the command line names it: a server
//     command's shutdown over the daemons it built from its configuration;
//   - it is a variadic parameter that no call in the package fills from a
//     slice (f(xs...)): its callers write the list out, argument by argument;
//   - it is a field of the package's own (unexported, or of a main package)
//     that is written only in start-up code or with a value read from
//     configuration: the constructor that main calls, NewBroker(cfg) that
//     copies cfg.Shards.
//
// A field appended to anywhere else, a constructor or a function that a
// request handler also calls, or a variadic parameter some call spreads a
// slice into, is input as before.

// startupFuncs are the package's functions that run only at start-up: main
// and init, a function that waits for the process's signals (see
// awaitsProcessSignals), one handed the process's configuration (see
// handedConfiguration), one that binds the listeners it serves on (see
// startsServers), and the plain functions (unexported, or any of a main package,
// which no other package can call) whose every use in the package is a call
// from start-up code. A call counts from inside the function literals of
// start-up code too, unless the literal takes a request (a handler main
// registers runs once per request). Methods are left out: an interface
// call to one is not seen.
func (c *checker) startupFuncs() map[*types.Func]bool {
	if c.startup != nil {
		return c.startup
	}
	c.startup = map[*types.Func]bool{}
	isMain := c.pass.Pkg.Name() == "main"
	// sites: for each candidate, the start-up function each use is called
	// from (nil: a use that is not such a call).
	sites := map[*types.Func][]*types.Func{}
	candidate := func(fn *types.Func) bool {
		return fn != nil && fn.Pkg() == c.pass.Pkg && fn.Signature().Recv() == nil && (isMain || !fn.Exported())
	}
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn != nil && (fd.Recv == nil && (fd.Name.Name == "init" || isMain && fd.Name.Name == "main") ||
				c.awaitsProcessSignals(fd) || c.handedConfiguration(fd) || c.startsServers(fd)) {
				c.startup[fn] = true
			}
		}
		ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			fn, _ := c.pass.TypesInfo.Uses[id].(*types.Func)
			if !candidate(fn) {
				return true
			}
			sites[fn] = append(sites[fn], c.startupSite(id, stack))
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for fn, from := range sites {
			if c.startup[fn] || slices.ContainsFunc(from, func(f *types.Func) bool { return f == nil || !c.startup[f] }) {
				continue
			}
			c.startup[fn] = true
			changed = true
		}
	}
	return c.startup
}

// handedConfiguration reports whether fd is handed the process's
// configuration (a parameter of a configuration type, isConfiguration) and
// neither a request nor a context: it runs when the process is configured,
// as a module's Init(cfg *config.Map) or its parser of one configuration
// block (maddy's DNSBL.Init and readListCfg(node config.Node), which start a
// goroutine per configured blocklist and fill the list every message is
// checked against), whatever its name, receiver or package. A function
// handed a context serves a caller that may come once per request.
func (c *checker) handedConfiguration(fd *ast.FuncDecl) bool {
	if fd.Type.Params == nil || c.contextParam(fd) != nil || c.takesRequest(fd.Type) {
		return false
	}
	for _, field := range fd.Type.Params.List {
		if c.isConfiguration(c.pass.TypesInfo.TypeOf(field.Type)) {
			return true
		}
	}
	return false
}

// startsServers reports whether fd binds or serves the process's listeners
// (catalog.Servers: net.Listen, ListenAndServe, a gRPC server's Serve)
// outside any function literal, and is handed neither a request nor a
// context: it starts the servers, once per process, as main does, whatever
// its name or receiver (jaeger's Agent.Run, which listens and then starts a
// goroutine per processor the agent was built with).
func (c *checker) startsServers(fd *ast.FuncDecl) bool {
	if c.contextParam(fd) != nil || c.takesRequest(fd.Type) {
		return false
	}
	return c.callsOutsideLiterals(fd, catalog.Servers)
}

// awaitsProcessSignals reports whether fd subscribes to the process's
// signals (signal.Notify, signal.NotifyContext) outside any function
// literal: it runs until the process is told to stop, so it runs once per
// process, as main does, whatever its name or package (a command's Run()
// that starts the modules compiled in, waits for SIGTERM and stops them).
func (c *checker) awaitsProcessSignals(fd *ast.FuncDecl) bool {
	return c.callsOutsideLiterals(fd, catalog.ProcessSignals)
}

// callsOutsideLiterals reports whether fd's body, outside its function
// literals (which may run later, or per request), calls a function of table.
func (c *checker) callsOutsideLiterals(fd *ast.FuncDecl, table *catalog.Table) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			found = found || table.Has(c.callee(n))
		}
		return !found
	})
	return found
}

// startupSite is the function declaration a use of a function (id, below
// stack) calls it from, or nil when the use is not a call, is outside any
// function, or is in a function literal that takes a request.
func (c *checker) startupSite(id *ast.Ident, stack []ast.Node) *types.Func {
	if len(stack) == 0 {
		return nil
	}
	call, ok := stack[len(stack)-1].(*ast.CallExpr)
	if !ok || ast.Unparen(call.Fun) != id {
		return nil
	}
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			if c.takesRequest(n.Type) {
				return nil
			}
		case *ast.FuncDecl:
			fn, _ := c.pass.TypesInfo.Defs[n.Name].(*types.Func)
			return fn
		}
	}
	return nil
}

// takesRequest reports whether a function type has a parameter that brings
// it a request.
func (c *checker) takesRequest(ft *ast.FuncType) bool {
	if ft.Params == nil {
		return false
	}
	for _, p := range ft.Params.List {
		if t := c.pass.TypesInfo.TypeOf(p.Type); t != nil && entrypoints.CarriesRequest(t) {
			return true
		}
	}
	return false
}

// fixedAtStartup reports whether the slice or map that loop, in fd, ranges
// over is a list fixed at start-up (see above).
func (c *checker) fixedAtStartup(fd *ast.FuncDecl, loop *ast.RangeStmt) bool {
	fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return false
	}
	if c.inStartupCode(fn, c.stackOf(fd, loop)) {
		return true
	}
	if id, ok := ast.Unparen(loop.X).(*ast.Ident); ok {
		return c.writtenOutArgument(fn, id)
	}
	return c.startupField(loop.X)
}

// inStartupCode reports whether the node stack leads to, in fn, runs only
// at start-up: fn is start-up code, or the node is in a command's function
// literal, and not in a literal that takes a request.
func (c *checker) inStartupCode(fn *types.Func, stack []ast.Node) bool {
	command, _ := entrypoints.CommandAt(c.pass, stack)
	return (c.startupFuncs()[fn] || command != nil) && !c.inRequestLiteral(stack)
}

// startupField reports whether x reads a field that only start-up code, or
// a value from configuration, sets (fieldSetAtStartup).
func (c *checker) startupField(x ast.Expr) bool {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.pass.TypesInfo.Selections[sel]
	if s == nil || s.Kind() != types.FieldVal {
		return false
	}
	field, _ := s.Obj().(*types.Var)
	return field != nil && c.fieldSetAtStartup(field.Origin())
}

// writtenOutArgument reports whether id is fn's variadic parameter and no
// call of fn in the package spreads a slice into it.
func (c *checker) writtenOutArgument(fn *types.Func, id *ast.Ident) bool {
	sig := fn.Signature()
	if !sig.Variadic() || c.pass.TypesInfo.ObjectOf(id) != sig.Params().At(sig.Params().Len()-1) {
		return false
	}
	spread := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && call.Ellipsis.IsValid() && c.callee(call) == fn {
				spread = true
			}
			return !spread
		})
	}
	return !spread
}

// fieldSetAtStartup reports whether field, one only this package can write
// (unexported, or of a main package), is written in the package's non-test
// files only in start-up code or with a value read from configuration, and
// its address is never taken.
func (c *checker) fieldSetAtStartup(field *types.Var) bool {
	if field.Pkg() != c.pass.Pkg || field.Exported() && c.pass.Pkg.Name() != "main" {
		return false
	}
	startup := c.startupFuncs()
	writes, fixed := 0, true
	// written records a write of value in the function declared by fd.
	written := func(fd *ast.FuncDecl, value ast.Expr) {
		writes++
		if fd == nil {
			fixed = false
			return
		}
		fn, _ := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn != nil && startup[fn] {
			return
		}
		if value == nil || !c.configured(fd.Body, value) {
			fixed = false
		}
	}
	for _, f := range c.pass.Files {
		if c.isTest(f) {
			continue
		}
		ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
			if !fixed {
				return false
			}
			switch n := n.(type) {
			case *ast.CompositeLit:
				st, ok := structOf(c.pass.TypesInfo.TypeOf(n))
				if !ok {
					return true
				}
				for i, elt := range n.Elts {
					if kv, ok := elt.(*ast.KeyValueExpr); ok {
						if key, ok := kv.Key.(*ast.Ident); ok && sameField(c.pass.TypesInfo.ObjectOf(key), field) {
							written(c.enclosingDecl(stack), kv.Value)
						}
					} else if i < st.NumFields() && sameField(st.Field(i), field) {
						written(c.enclosingDecl(stack), elt)
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if c.selectsField(lhs, field) || c.addsToMapField(lhs, field) {
						var value ast.Expr
						if len(n.Lhs) == len(n.Rhs) && n.Tok == token.ASSIGN {
							value = n.Rhs[i]
						}
						written(c.enclosingDecl(stack), value)
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND && c.selectsField(n.X, field) {
					fixed = false // someone else may fill it
				}
			}
			return true
		})
	}
	return fixed && writes > 0
}

// addsToMapField reports whether e, the left side of an assignment, is an
// entry of field, a map: m.urls[name] = url adds to the map as surely as
// an append adds to a slice (an element of a slice written by index does
// not grow it).
func (c *checker) addsToMapField(e ast.Expr, field *types.Var) bool {
	ix, ok := ast.Unparen(e).(*ast.IndexExpr)
	if !ok || !c.selectsField(ix.X, field) {
		return false
	}
	_, isMap := field.Type().Underlying().(*types.Map)
	return isMap
}

func (c *checker) selectsField(e ast.Expr, field *types.Var) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := c.pass.TypesInfo.Selections[sel]
	return s != nil && s.Kind() == types.FieldVal && sameField(s.Obj(), field)
}

// sameField reports whether obj is field, or the field it is of one
// instantiation of a generic type (manager[T]'s consumers in a method and
// in the constructor are one field; go/types gives each its own object).
func sameField(obj types.Object, field *types.Var) bool {
	v, ok := obj.(*types.Var)
	return ok && v.Origin() == field.Origin()
}

// structOf is the struct type t is, or points to.
func structOf(t types.Type) (*types.Struct, bool) {
	if t == nil {
		return nil, false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// enclosingDecl is the function declaration in stack, or nil: a
// package-level initialiser, or a function literal that takes a request.
func (c *checker) enclosingDecl(stack []ast.Node) *ast.FuncDecl {
	for i := len(stack) - 1; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncLit:
			if c.takesRequest(n.Type) {
				return nil
			}
		case *ast.FuncDecl:
			return n
		}
	}
	return nil
}

// inRequestLiteral reports whether a node below stack sits inside a
// function literal that takes a request (a handler main registers).
func (c *checker) inRequestLiteral(stack []ast.Node) bool {
	return slices.ContainsFunc(stack, func(s ast.Node) bool {
		lit, ok := s.(*ast.FuncLit)
		return ok && c.takesRequest(lit.Type)
	})
}

// stackOf is the path from fd's body down to n (n excluded), or nil.
func (c *checker) stackOf(fd *ast.FuncDecl, n ast.Node) []ast.Node {
	var out []ast.Node
	ast.PreorderStack(fd.Body, nil, func(x ast.Node, stack []ast.Node) bool {
		if x == n {
			out = slices.Clone(stack)
		}
		return out == nil
	})
	return out
}
