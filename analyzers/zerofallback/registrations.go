package zerofallback

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/directive"
	"github.com/bhlint/bhlint/internal/ssautil"
)

func (c *checker) collectDirectives(f *ast.File) {
	for _, d := range directive.InFile(f, directive.VerifiedCompensation) {
		p := c.pass.Fset.Position(d.Pos)
		if c.verified[p.Filename] == nil {
			c.verified[p.Filename] = map[int]bool{}
		}
		c.verified[p.Filename][p.Line] = true
	}
}

// isVerified reports whether fn is marked //bhlint:verified-compensation: in
// its doc comment, or, for a literal, on its line or the line above.
func (c *checker) isVerified(fn ast.Node) bool {
	if fd, ok := fn.(*ast.FuncDecl); ok {
		return len(directive.InGroup(fd.Doc, directive.VerifiedCompensation)) > 0
	}
	p := c.pass.Fset.Position(fn.Pos())
	lines := c.verified[p.Filename]
	return lines[p.Line] || lines[p.Line-1]
}

func (c *checker) collectRegistrations(f *ast.File) {
	ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutilCallee(c.pass.TypesInfo, call).(*types.Func)
		if fn == nil {
			return true
		}
		key := catalog.Key(fn)
		if i, ok := catalog.FallbackFuncs[key]; ok && i < len(call.Args) {
			e := &entry{pos: call.Pos(), why: "registered as a fallback with " + shortName(fn)}
			switch arg := ast.Unparen(call.Args[i]).(type) {
			case *ast.FuncLit:
				c.registered[arg] = e
			default:
				if named, ok := calleeObject(c.pass.TypesInfo, arg).(*types.Func); ok {
					c.regFuncs[named] = e
				}
			}
		}
		if i, ok := catalog.FallbackValues[key]; ok && i < len(call.Args) {
			c.checkFallbackValue(call, fn, call.Args[i], stack)
		}
		return true
	})
}

func (c *checker) collectTables(f *ast.File) {
	for name, value := range ssautil.PackageVars(f) {
		lit, ok := ast.Unparen(value).(*ast.CompositeLit)
		v, isVar := c.pass.TypesInfo.Defs[name].(*types.Var)
		if ok && isVar && len(lit.Elts) > 0 && c.allConstant(elementValues(lit)) {
			switch v.Type().Underlying().(type) {
			case *types.Map, *types.Slice, *types.Array:
				c.tables[v] = true
			}
		}
	}
}

// hardCodedTable reports whether x reads a hard-coded table: rates[j].
func (c *checker) hardCodedTable(x ast.Expr) (string, bool) {
	ix, ok := ast.Unparen(x).(*ast.IndexExpr)
	if !ok {
		return "", false
	}
	id, ok := ast.Unparen(ix.X).(*ast.Ident)
	if !ok {
		return "", false
	}
	if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && c.tables[v] {
		return id.Name, true
	}
	return "", false
}

// checkFallbackValue reports fallback.NewWithResult(0) for a money result.
func (c *checker) checkFallbackValue(call *ast.CallExpr, fn *types.Func, arg ast.Expr, stack []ast.Node) {
	if c.stackVerified(stack) {
		return
	}
	t := c.pass.TypesInfo.TypeOf(arg)
	if t == nil || !(holdsMoney(c.money, t) || c.money.NameIsMoney(subjectName(stack), t)) {
		return
	}
	if what, ok := c.invented(arg); ok {
		c.report(arg.Pos(), &entry{pos: call.Pos(), why: "registered as the fallback result of " + shortName(fn)},
			fmt.Sprintf("%s: %s serves %s as the result of every failed call: an invented %s the caller cannot tell from a real one; %s",
				Code, shortName(fn), what, noun(t, ""), fix))
	}
}
