package zerofallback

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
)

// invented reports whether x is a hard-coded money value, and describes it:
// a constant (0, 0.07, a named constant), a money composite literal that is
// zero or all constants, decimal.Zero, a decimal built from constants, or an
// amount multiplied by a literal rate. A value read from a verified
// compensation table is never invented.
func (c *checker) invented(x ast.Expr) (string, bool) {
	if _, ok := x.(*zeroValue); ok {
		return "the zero value of its declaration", true
	}
	if c.readsVerified(x) {
		return "", false
	}
	x = ast.Unparen(x)
	info := c.pass.TypesInfo
	if tv, ok := info.Types[x]; ok && tv.Value != nil {
		return "the hard-coded " + c.exprString(x), true
	}
	if table, ok := c.hardCodedTable(x); ok {
		return c.exprString(x) + ", from the hard-coded table " + table + " that no contract test verifies", true
	}
	switch x := x.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		if catalog.MoneyConstants[objectKey(calleeObject(info, x))] {
			return "the hard-coded " + c.exprString(x), true
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return c.invented(x.X)
		}
	case *ast.CompositeLit:
		return c.inventedComposite(x)
	case *ast.CallExpr:
		return c.inventedCall(x)
	case *ast.BinaryExpr:
		if x.Op == token.MUL || x.Op == token.QUO {
			for _, side := range []ast.Expr{x.X, x.Y} {
				if rate, ok := c.literalRate(side); ok {
					return c.exprString(x) + ", an amount times the hard-coded rate " + rate, true
				}
				if table, ok := c.hardCodedTable(side); ok {
					return c.exprString(x) + ", an amount times a rate from the hard-coded table " + table + " that no contract test verifies", true
				}
			}
		}
	}
	return "", false
}

func (c *checker) inventedCall(call *ast.CallExpr) (string, bool) {
	info := c.pass.TypesInfo
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 {
		return c.invented(call.Args[0]) // Money(0)
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if b, ok := info.Uses[id].(*types.Builtin); ok && b.Name() == "new" && holdsMoney(c.money, info.TypeOf(call)) {
			return "the zero " + c.exprString(call), true
		}
	}
	fn, _ := typeutilCallee(info, call).(*types.Func)
	if fn == nil {
		return "", false
	}
	if catalog.MoneyConstructors.Has(fn) && c.allConstant(call.Args) {
		return "the hard-coded " + c.exprString(call), true
	}
	// amount.Mul(decimal.NewFromFloat(0.07)): a literal rate.
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil && (fn.Name() == "Mul" || fn.Name() == "Div") && len(call.Args) == 1 {
		if holdsMoney(c.money, info.TypeOf(sel.X)) {
			if _, ok := c.invented(call.Args[0]); ok {
				return c.exprString(call) + ", an amount times a hard-coded rate", true
			}
		}
	}
	return "", false
}

func (c *checker) inventedComposite(lit *ast.CompositeLit) (string, bool) {
	t := c.pass.TypesInfo.TypeOf(lit)
	if t == nil {
		return "", false
	}
	if c.money.TypeIsMoney(t) {
		if len(lit.Elts) == 0 || c.allConstant(elementValues(lit)) {
			return "the hard-coded " + c.exprString(lit), true
		}
		return "", false
	}
	// A struct that holds money (Quote{OrderID: id}): each money field must
	// come from somewhere real.
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return "", false
	}
	set := map[string]ast.Expr{}
	for i, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				set[id.Name] = kv.Value
			}
		} else if i < st.NumFields() {
			set[st.Field(i).Name()] = elt
		}
	}
	for f := range st.Fields() {
		if !isMoneyField(c.money, f) {
			continue
		}
		value, ok := set[f.Name()]
		if !ok {
			return "a " + types.TypeString(t, types.RelativeTo(c.pass.Pkg)) + " literal that leaves " + f.Name() + " zero", true
		}
		if what, ok := c.invented(value); ok {
			return "a " + types.TypeString(t, types.RelativeTo(c.pass.Pkg)) + " literal whose " + f.Name() + " is " + strings.TrimPrefix(what, "the "), true
		}
	}
	return "", false
}

func elementValues(lit *ast.CompositeLit) []ast.Expr {
	var out []ast.Expr
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			elt = kv.Value
		}
		out = append(out, elt)
	}
	return out
}

func (c *checker) allConstant(xs []ast.Expr) bool {
	for _, x := range xs {
		if tv, ok := c.pass.TypesInfo.Types[x]; !ok || tv.Value == nil {
			return false
		}
	}
	return true
}

// literalRate: a non-integer constant such as 0.07, as a multiplier.
func (c *checker) literalRate(x ast.Expr) (string, bool) {
	tv, ok := c.pass.TypesInfo.Types[x]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Float {
		return "", false
	}
	if constant.ToInt(tv.Value).Kind() == constant.Int {
		return "", false // 100, 2.0: unit conversions, not rates
	}
	return c.exprString(x), true
}

// readsVerified reports whether x reads a verified compensation table.
func (c *checker) readsVerified(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn, ok := typeutilCallee(c.pass.TypesInfo, call).(*types.Func); ok && catalog.VerifiedSources.Has(fn) {
				found = true
			}
		}
		return !found
	})
	return found
}
