package zerofallback

import (
	"go/ast"
	"go/constant"
	"go/types"
)

// checkReturn reports a return that serves an invented money value with a
// nil error: directly on a fallback path, or from a variable that a fallback
// path set.
func (c *checker) checkReturn(ret *ast.ReturnStmt, stack []ast.Node) {
	fnNode := enclosingFunc(stack)
	if fnNode == nil || c.stackVerified(stack) {
		return
	}
	sig := c.signature(fnNode)
	if sig == nil || sig.Results().Len() == 0 {
		return
	}
	on, _ := c.fallbackEntry(stack, ret)
	results := sig.Results()
	if len(ret.Results) != 0 && len(ret.Results) != results.Len() {
		return // return f(): the values come from the call
	}
	if !c.nilError(ret, results) || c.signalsAbsence(ret, results) {
		return
	}
	subject := funcSubject(fnNode, stack)
	for i := range results.Len() {
		res := results.At(i)
		if isError(res.Type()) {
			continue
		}
		var expr ast.Expr
		if len(ret.Results) == results.Len() {
			expr = ret.Results[i]
		}
		c.checkResult(ret, res, expr, subject, results.Len(), on)
	}
}

func (c *checker) checkResult(ret *ast.ReturnStmt, res *types.Var, expr ast.Expr, subject string, nresults int, on *entry) {
	// The value returned, and the variable it came from, if any.
	var v *types.Var
	name := res.Name()
	if expr == nil {
		v = res // a bare return of a named result
	} else if id, ok := ast.Unparen(expr).(*ast.Ident); ok {
		v, _ = c.pass.TypesInfo.ObjectOf(id).(*types.Var)
		if v != nil {
			name = v.Name()
		}
	}
	if !c.isMoneySlot(res, name, subject, nresults) && !c.exprHoldsMoney(expr) {
		return
	}
	if v == nil || !isLocal(v) {
		if on == nil {
			return
		}
		if what, ok := c.invented(expr); ok {
			c.reportReturn(expr.Pos(), on, what, res, name, subject)
		}
		return
	}
	if on != nil {
		w, ok := c.lastWrite(v, ret.Pos())
		if !ok || w.value == nil {
			return
		}
		if what, invented := c.invented(w.value); invented {
			pos := ret.Pos()
			if expr != nil {
				pos = expr.Pos()
			}
			c.reportReturn(pos, on, what+" (set at line "+c.line(w.pos)+")", res, v.Name(), subject)
		}
		return
	}
	// A return after the branch: the writes a fallback branch made that
	// reach it.
	for _, w := range c.writes[v] {
		if w.on == nil || w.value == nil || w.pos >= ret.Pos() || !reaches(w, ret) || c.overwritten(v, w, ret) {
			continue
		}
		if what, invented := c.invented(w.value); invented {
			c.reportReturn(w.pos, w.on, what, res, v.Name(), subject)
		}
	}
}

// overwritten reports whether another write to v comes between w and ret,
// other than one in another branch of w's if or switch.
func (c *checker) overwritten(v *types.Var, w write, ret *ast.ReturnStmt) bool {
	for _, other := range c.writes[v] {
		if other.pos <= w.pos || other.pos >= ret.Pos() {
			continue
		}
		inBody := w.on.body != nil && w.on.body.Pos() <= other.pos && other.pos < w.on.body.End()
		inSibling := !inBody && w.on.stmt != nil && w.on.stmt.Pos() <= other.pos && other.pos < w.on.stmt.End()
		if !inSibling {
			return true
		}
	}
	return false
}

// reaches reports whether a write on a fallback branch can reach a return
// after the branch: not if the branch ends in a return or a jump.
func reaches(w write, ret *ast.ReturnStmt) bool {
	body := w.on.body
	if body == nil || (body.Pos() <= ret.Pos() && ret.End() <= body.End()) {
		return true
	}
	if len(body.List) == 0 {
		return true
	}
	switch last := body.List[len(body.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return false
	case *ast.ExprStmt:
		if call, ok := last.X.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "panic" {
				return false
			}
		}
	}
	return true
}

// nilError reports whether the return's error result, if it has one, is
// nil: the literal nil, or a variable whose last write was nil (or that was
// never written). A function with no error result cannot signal failure, so
// what it returns is used. The error result is the last of type error,
// wherever it is: (fee, err, retry) signals failure as (fee, err) does.
func (c *checker) nilError(ret *ast.ReturnStmt, results *types.Tuple) bool {
	last := errorResult(results)
	if last < 0 {
		return true
	}
	var v *types.Var
	if len(ret.Results) == 0 {
		v = results.At(last)
	} else {
		x := ret.Results[last]
		if c.isNil(x) {
			return true
		}
		id, ok := ast.Unparen(x).(*ast.Ident)
		if !ok {
			return false
		}
		v, _ = c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	}
	if v == nil {
		return false
	}
	w, ok := c.lastWrite(v, ret.Pos())
	if !ok {
		return isLocal(v) && len(c.writes[v]) == 0 && isResult(v, results)
	}
	if _, ok := w.value.(*zeroValue); ok {
		return true // var err error
	}
	return w.value != nil && c.isNil(w.value)
}

// isLocal: a variable of a function (a local, parameter or result), not a
// field or a package-level variable.
func isLocal(v *types.Var) bool {
	return v.Parent() != nil && v.Pkg() != nil && v.Parent() != v.Pkg().Scope()
}

func isResult(v *types.Var, results *types.Tuple) bool {
	for i := range results.Len() {
		if results.At(i) == v {
			return true
		}
	}
	return false
}

// signalsAbsence: a return that also says false in a bool result
// ("found", "ok") tells the caller there is no value.
func (c *checker) signalsAbsence(ret *ast.ReturnStmt, results *types.Tuple) bool {
	if len(ret.Results) != results.Len() {
		return false
	}
	for i, x := range ret.Results {
		if b, ok := results.At(i).Type().Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
			if tv := c.pass.TypesInfo.Types[x]; tv.Value != nil && !constant.BoolVal(tv.Value) {
				return true
			}
		}
	}
	return false
}

// isMoneySlot reports whether a result holds money: by its type, by its
// name or the name of the variable returned, or, for the one numeric result
// of a function, by the function's name (taxFor, shippingFee).
func (c *checker) isMoneySlot(res *types.Var, name, subject string, nresults int) bool {
	t := res.Type()
	if holdsMoney(c.money, t) || (name != "" && c.money.NameIsMoney(name, t)) {
		return true
	}
	if res.Name() != "" && c.money.NameIsMoney(res.Name(), t) {
		return true
	}
	return res.Name() == "" && (nresults == 1 || nresults == 2) && subject != "" && c.money.NameIsMoney(subject, t)
}

// exprHoldsMoney: arithmetic on a money-named value is money (amount * 0.07).
func (c *checker) exprHoldsMoney(x ast.Expr) bool {
	if x == nil { // a bare return
		return false
	}
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.CallExpr:
			return false
		case *ast.Ident:
			if v, ok := c.pass.TypesInfo.ObjectOf(n).(*types.Var); ok && c.money.NameIsMoney(v.Name(), v.Type()) {
				found = true
			}
		}
		return !found
	})
	return found
}

// errorResult is the index of the last result of type error, or -1.
func errorResult(results *types.Tuple) int {
	for i := results.Len() - 1; i >= 0; i-- {
		if isError(results.At(i).Type()) {
			return i
		}
	}
	return -1
}
