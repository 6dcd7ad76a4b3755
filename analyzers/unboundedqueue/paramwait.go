package unboundedqueue

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// A helper that runs its ORM round trip on the handle it is handed
// (getRecord(txn *gorm.DB, …) { txn.Where(…).First(…) }) does not know
// whether the handle carries a context: its caller does. The helper's wait
// is kept with the parameter it rides on (waitAt.ViaParam), and each call
// decides it by the argument passed: the shared handle, a field or a
// package variable (getRecord(s.db, …)), is a wait with no context at the
// call, the line to change; a handle with a context attached
// (s.db.WithContext(ctx)), a transaction, or anything the analysis does
// not follow is none; the caller's own parameter hands the question on.

// paramHandleWait is the index of fd's parameter whose ORM handle call
// waits on with no context attached on the way (a database round trip with
// no context argument), or -1.
func (c *checker) paramHandleWait(fd *ast.FuncDecl, call *ast.CallExpr) int {
	if fn := c.callee(call); fn == nil || !catalog.DatabaseWaits.Has(fn) || c.contextArg(call) != nil {
		return -1
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !c.isORMHandle(sel.X) {
		return -1
	}
	return c.handleParam(fd, sel.X, 0)
}

// handleParam is the index of fd's parameter that the ORM handle e is built
// from by builders that attach no context (txn.Where(…).Order(…)), or -1.
func (c *checker) handleParam(fd *ast.FuncDecl, e ast.Expr, depth int) int {
	if depth > 8 {
		return -1
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn := c.callee(x)
		if fn == nil || catalog.ORMContextSetters.Has(fn) {
			return -1
		}
		if _, held := catalog.HeldCalls[fn.FullName()]; held {
			return -1 // a transaction's queries run on the connection it holds
		}
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if !ok || !c.isORMHandle(sel.X) {
			return -1
		}
		return c.handleParam(fd, sel.X, depth+1)
	case *ast.Ident:
		v, _ := c.pass.TypesInfo.ObjectOf(x).(*types.Var)
		if i, ok := paramIndex(c.pass.TypesInfo, fd)[v]; ok {
			return i
		}
	}
	return -1
}

// paramWaitsAtCall decides, at call in fd, the waits of its callee that
// ride on one of its parameters (ViaParam), by the argument fd passes.
func (c *checker) paramWaitsAtCall(fd *ast.FuncDecl, call *ast.CallExpr, waits []waitAt) []waitAt {
	var out []waitAt
	for _, w := range waits {
		if w.ViaParam == 0 {
			out = append(out, w)
			continue
		}
		if w.ViaParam > len(call.Args) {
			continue
		}
		arg := call.Args[w.ViaParam-1]
		if j := c.handleParam(fd, arg, 0); j >= 0 {
			w.ViaParam = j + 1 // fd's caller decides
			out = append(out, w)
			continue
		}
		if c.handleHasContext(fd, arg, 0) {
			continue
		}
		out = append(out, c.sharedHandleWait(fd, call, w))
	}
	return out
}

// handleContextFix is how to give a helper's wait on its handle the
// request's context.
const handleContextFix = "hand it the handle with the request's context attached (db.WithContext(ctx))"

// sharedHandleWait is w, a helper's wait on the handle it is handed, moved
// to call, which hands it the shared handle.
func (c *checker) sharedHandleWait(fd *ast.FuncDecl, call *ast.CallExpr, w waitAt) waitAt {
	at := c.waitAtCall(fd, call)
	at.Call += onSharedHandle(w)
	at.NeedsMax = !c.poolsLimitedHere()
	if handed := c.contextParam(fd); handed != nil {
		at.Handed, at.Fix = handed.Name(), handleContextFix
	}
	return at
}

// ssaParamWaitsAtCall decides the ViaParam waits of call's callee on a
// request's path: the shared handle (a field or a package variable loaded
// as the argument) is a wait at the call; anything else is not decided
// here, and the AST's verdict (paramWaitsAtCall) carries it on.
func (c *checker) ssaParamWaitsAtCall(call *ssa.Call, waits []waitAt) []waitAt {
	common := call.Common()
	offset := 0
	if !common.IsInvoke() && ssautil.Receiver(common) != nil {
		offset = 1 // a static method call: Args[0] is the receiver
	}
	var out []waitAt
	for _, w := range waits {
		if w.ViaParam == 0 {
			out = append(out, w)
			continue
		}
		i := w.ViaParam - 1 + offset
		if i >= len(common.Args) || !loadsSharedHandle(common.Args[i]) {
			continue
		}
		p := c.pass.Fset.Position(call.Pos())
		at := waitAt{File: p.Filename, Line: p.Line, Col: p.Column, In: call.Parent().Name(), NeedsMax: !c.poolsLimitedHere(),
			Call: ssaCalleeName(common) + onSharedHandle(w)}
		for _, param := range call.Parent().Params {
			if t := param.Type(); isNamed(t, "context", "Context") || carriesContext(t) || isContextLike(t) {
				at.Handed, at.Fix = param.Name(), handleContextFix
				break
			}
		}
		out = append(out, at)
	}
	return out
}

// onSharedHandle describes w, a helper's wait on its handle, as seen from a
// call that hands it the shared one.
func onSharedHandle(w waitAt) string {
	return " (" + w.Call + " inside it, on the shared handle it is handed)"
}

// loadsSharedHandle reports whether v is a field's or a package variable's
// value: the handle a struct was built with, or the program's.
func loadsSharedHandle(v ssa.Value) bool {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			switch x.X.(type) {
			case *ssa.FieldAddr, *ssa.Global:
				return true
			}
		}
	case *ssa.Field:
		return true
	}
	return false
}
