package unboundedqueue

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// returnsSharedHandle marks a function that returns, on every path, an ORM
// handle read out of a field of one of its parameters or out of a package
// variable (nightingale's models.DB(ctx) returning ctx.DB): the shared
// handle, which carries no context, not one its caller built with the
// request's. A wait on its result is a wait with no context (shape 4).
type returnsSharedHandle struct{}

func (*returnsSharedHandle) AFact()         {}
func (*returnsSharedHandle) String() string { return "returnsSharedHandle" }

// learnSharedHandleGetters exports returnsSharedHandle for this package's
// functions that return a stored ORM handle.
func (c *checker) learnSharedHandleGetters() {
	c.handleGetters = map[*types.Func]bool{}
	for _, d := range c.funcDecls(false) {
		if c.returnsStoredHandle(d.fd, d.obj) {
			c.handleGetters[d.obj] = true
			c.pass.ExportObjectFact(d.obj, &returnsSharedHandle{})
		}
	}
}

// returnsStoredHandle reports whether fd, of one ORM handle result, returns
// on every path a field of one of its parameters or a package variable; or
// whether it is handed neither a context nor a handle and attaches none
// (dtm's dtmutil.DbGet(conf), which returns the pool it caches per DSN in
// a package sync.Map): what it returns can carry no caller's context.
func (c *checker) returnsStoredHandle(fd *ast.FuncDecl, obj *types.Func) bool {
	res := obj.Signature().Results()
	if res.Len() != 1 || !isORMHandleType(res.At(0).Type()) {
		return false
	}
	if c.handedNoContext(fd, obj.Signature()) {
		return true
	}
	stored, returns := true, 0
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			returns++
			stored = stored && len(n.Results) == 1 && c.isStoredHandle(obj.Signature(), n.Results[0])
		}
		return stored
	})
	return stored && returns > 0
}

// handedNoContext reports whether a function is handed no context and no
// ORM handle (as a parameter or its receiver), and attaches no context to
// a handle (ORMContextSetters).
func (c *checker) handedNoContext(fd *ast.FuncDecl, sig *types.Signature) bool {
	vars := slices.Collect(sig.Params().Variables())
	if sig.Recv() != nil {
		vars = append(vars, sig.Recv())
	}
	for _, v := range vars {
		if ssautil.IsContext(v.Type()) || isORMHandleType(v.Type()) {
			return false
		}
	}
	attaches := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && catalog.ORMContextSetters.Has(c.callee(call)) {
			attaches = true
		}
		return !attaches
	})
	return !attaches
}

// isORMHandleType reports whether t is an ORM handle (ORMContextHandles)
// or a struct, or a pointer to one, that embeds one (dtm's dtmutil.DB
// wrapping *gorm.DB): its round trips are the embedded handle's.
func isORMHandleType(t types.Type) bool {
	_, ok := ssautil.EmbeddedFind(t, 3, func(t types.Type) (struct{}, bool) {
		return struct{}{}, slices.Contains(catalog.ORMContextHandles, types.TypeString(t, nil))
	})
	return ok
}

// isStoredHandle reports whether e reads a field of a parameter or the
// receiver of sig (ctx.DB), or a package variable.
func (c *checker) isStoredHandle(sig *types.Signature, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.ObjectOf(x).(*types.Var)
		return ok && v.Parent() == c.pass.Pkg.Scope()
	case *ast.SelectorExpr:
		field, ok := c.pass.TypesInfo.ObjectOf(x.Sel).(*types.Var)
		if !ok || !field.IsField() {
			return false
		}
		id, ok := ast.Unparen(x.X).(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
		return ok && isParamOf(sig, v)
	}
	return false
}

// isParamOf reports whether v is a parameter or the receiver of sig.
func isParamOf(sig *types.Signature, v *types.Var) bool {
	if v == sig.Recv() {
		return true
	}
	for p := range sig.Params().Variables() {
		if p == v {
			return true
		}
	}
	return false
}

// sharedHandleGetter reports whether fn returns a stored ORM handle
// (returnsSharedHandle), by this package's analysis or fn's fact.
func (c *checker) sharedHandleGetter(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	if fn.Pkg() == c.pass.Pkg {
		return c.handleGetters[fn]
	}
	return fn.Pkg() != nil && c.pass.ImportObjectFact(fn, new(returnsSharedHandle))
}
