package zerofallback

import (
	"go/ast"
	"go/token"
	"go/types"
)

// checkDeferredRecover reports a deferred func literal that recovers a
// panic and sets a named money result to an invented value without setting
// the error result.
func (c *checker) checkDeferredRecover(d *ast.DeferStmt, stack []ast.Node) {
	lit, ok := ast.Unparen(d.Call.Fun).(*ast.FuncLit)
	if !ok || c.stackVerified(stack) || c.isVerified(lit) {
		return
	}
	outer := enclosingFunc(stack)
	sig := c.signature(outer)
	if sig == nil {
		return
	}
	recoverCall := c.findRecover(lit)
	if recoverCall == nil {
		return
	}
	results := sig.Results()
	var errResult *types.Var
	if n := results.Len(); n > 0 && isError(results.At(n-1).Type()) && results.At(n-1).Name() != "" {
		errResult = results.At(n - 1)
	}
	type moneyWrite struct {
		pos  token.Pos
		what string
		res  *types.Var
	}
	var found []moneyWrite
	errorSet := false
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for i, lhs := range as.Lhs {
			id, ok := ast.Unparen(lhs).(*ast.Ident)
			if !ok {
				continue
			}
			v, _ := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
			if v == nil || !isResult(v, results) {
				continue
			}
			var value ast.Expr
			if len(as.Lhs) == len(as.Rhs) {
				value = as.Rhs[i]
			}
			if v == errResult {
				errorSet = errorSet || value == nil || !c.isNil(value)
				continue
			}
			if value == nil || !c.isMoneySlot(v, v.Name(), "", results.Len()) {
				continue
			}
			if what, ok := c.invented(value); ok {
				found = append(found, moneyWrite{as.Pos(), what, v})
			}
		}
		return true
	})
	if errorSet {
		return
	}
	on := &entry{pos: recoverCall.Pos(), why: "recover() in a deferred function"}
	for _, w := range found {
		c.reportReturn(w.pos, on, w.what, w.res, w.res.Name(), "")
	}
}

func (c *checker) findRecover(lit *ast.FuncLit) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && found == nil {
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "recover" {
					found = call
				}
			}
		}
		return found == nil
	})
	return found
}
