package unboundedqueue

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/bhlint/bhlint/internal/catalog"
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
// on every path a field of one of its parameters or a package variable.
func (c *checker) returnsStoredHandle(fd *ast.FuncDecl, obj *types.Func) bool {
	res := obj.Signature().Results()
	if res.Len() != 1 || !slices.Contains(catalog.ORMContextHandles, types.TypeString(res.At(0).Type(), nil)) {
		return false
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
