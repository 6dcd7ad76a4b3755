package zerofallback

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/catalog"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
)

// Code starts every message of this analyzer.
const Code = "ERR_UNTESTED_COMPENSATION_REJECTED"

//go:embed doc.go
var doc string

// Analyzer reports fallback paths that serve hard-coded money values.
var Analyzer = guard.Wrap(&analysis.Analyzer{
	Name: "zerofallback",
	Doc:  docs.Extract(doc, "zerofallback"),
	URL:  "https://github.com/bhlint/bhlint/tree/main/analyzers/zerofallback",
	Run:  run,
}, Code)

func run(pass *analysis.Pass) (any, error) {
	money, err := moneyPatterns(pass)
	if err != nil {
		return nil, err
	}
	if declaresCatalogType(money, pass.Pkg) || !declaresMoney(money, pass) {
		return nil, nil
	}
	c := &checker{
		pass:       pass,
		money:      money,
		registered: map[ast.Node]*entry{},
		regFuncs:   map[*types.Func]*entry{},
		verified:   map[string]map[int]bool{},
		writes:     map[*types.Var][]write{},
		reported:   map[token.Pos]bool{},
		tables:     map[*types.Var]bool{},
	}
	for _, f := range pass.Files {
		c.collectDirectives(f)
		c.collectRegistrations(f)
		c.collectTables(f)
	}
	for _, f := range pass.Files {
		if strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue // test fakes fail on purpose and answer anything; they never serve production
		}
		guard.At(f.Pos(), func() { c.checkFile(f) })
	}
	return nil, nil
}

type checker struct {
	pass       *analysis.Pass
	money      *catalog.MoneyPatterns  // the catalogue's, plus the project's .bhlint.yml
	registered map[ast.Node]*entry     // func literals registered as fallbacks
	regFuncs   map[*types.Func]*entry  // named functions registered as fallbacks
	verified   map[string]map[int]bool // file → lines of //bhlint:verified-compensation
	writes     map[*types.Var][]write  // every write to a local or result, in source order
	reported   map[token.Pos]bool
	// tables are package-level maps, slices and arrays initialised with
	// constants only: hard-coded tables that no contract test verifies.
	tables map[*types.Var]bool
}

// entry is where a fallback path starts, and why it is one.
type entry struct {
	pos token.Pos
	why string
	// body is the block of the branch, nil for a whole function; a write in
	// a body that ends in a return does not reach code after the branch.
	body *ast.BlockStmt
	// stmt is the if or switch statement of the branch: writes in its other
	// branches do not overwrite one in body.
	stmt ast.Node
}

// write is one assignment to a variable: the value written (nil when it is
// not a single expression: a call's results, x += y, &x passed on) and the
// fallback path it is on, if any.
type write struct {
	pos   token.Pos
	value ast.Expr
	on    *entry
}

// ---- the walk ----

func (c *checker) checkFile(f *ast.File) {
	ast.PreorderStack(f, nil, func(n ast.Node, stack []ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			c.recordAssign(n, stack)
		case *ast.ValueSpec:
			c.recordValueSpec(n, stack)
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				c.recordWrite(x, nil, n.Pos(), stack)
			}
		case *ast.IncDecStmt:
			c.recordWrite(n.X, nil, n.Pos(), stack)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				c.recordWrite(n.X, nil, n.Pos(), stack)
			}
		case *ast.ReturnStmt:
			guard.At(n.Pos(), func() { c.checkReturn(n, stack) })
		case *ast.DeferStmt:
			guard.At(n.Pos(), func() { c.checkDeferredRecover(n, stack) })
		}
		return true
	})
}

func (c *checker) recordAssign(as *ast.AssignStmt, stack []ast.Node) {
	plain := as.Tok == token.ASSIGN || as.Tok == token.DEFINE
	for i, lhs := range as.Lhs {
		var value ast.Expr
		switch {
		case plain && len(as.Lhs) == len(as.Rhs):
			value = as.Rhs[i]
		case plain && i == 0 && len(as.Lhs) == 2 && len(as.Rhs) == 1:
			if _, ok := c.hardCodedTable(as.Rhs[0]); ok {
				value = as.Rhs[0] // rate, ok := rates[j]
			}
		}
		c.recordWrite(lhs, value, as.Pos(), stack)
	}
}

func (c *checker) recordValueSpec(spec *ast.ValueSpec, stack []ast.Node) {
	for i, name := range spec.Names {
		var value ast.Expr = &zeroValue{spec.Type}
		switch {
		case len(spec.Values) == len(spec.Names):
			value = spec.Values[i]
		case len(spec.Values) > 0:
			value = nil
		}
		c.recordWrite(name, value, spec.Pos(), stack)
	}
}

// zeroValue stands for the zero value of a declaration without one.
type zeroValue struct{ ast.Expr }

func (c *checker) recordWrite(lhs ast.Expr, value ast.Expr, pos token.Pos, stack []ast.Node) {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok || id.Name == "_" {
		return
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || !isLocal(v) {
		return // fields and package-level variables are not followed
	}
	on, _ := c.fallbackEntry(stack, lhs)
	c.writes[v] = append(c.writes[v], write{pos: pos, value: value, on: on})
}

// lastWrite is the write to v nearest before pos, by position: on
// structured code, the write that reaches pos on the path through it.
func (c *checker) lastWrite(v *types.Var, pos token.Pos) (write, bool) {
	var last write
	found := false
	for _, w := range c.writes[v] {
		if w.pos < pos {
			last, found = w, true
		}
	}
	return last, found
}

// ---- small helpers ----

func (c *checker) stackVerified(stack []ast.Node) bool {
	for _, n := range stack {
		switch n.(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			if c.isVerified(n) {
				return true
			}
		}
	}
	return false
}

func enclosingFunc(stack []ast.Node) ast.Node {
	for i := len(stack) - 1; i >= 0; i-- {
		switch stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			return stack[i]
		}
	}
	return nil
}

func (c *checker) signature(fn ast.Node) *types.Signature {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		if obj, ok := c.pass.TypesInfo.Defs[fn.Name].(*types.Func); ok {
			return obj.Signature()
		}
	case *ast.FuncLit:
		sig, _ := c.pass.TypesInfo.TypeOf(fn).(*types.Signature)
		return sig
	}
	return nil
}

// funcSubject is the name that says what a function computes: its own, or
// for a literal, the variable it is assigned to or its enclosing function's.
func funcSubject(fn ast.Node, stack []ast.Node) string {
	if fd, ok := fn.(*ast.FuncDecl); ok {
		return fd.Name.Name
	}
	return subjectName(stack)
}

func subjectName(stack []ast.Node) string {
	for i := len(stack) - 1; i >= 0; i-- {
		switch s := stack[i].(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) == 1 {
				if id, ok := s.Lhs[0].(*ast.Ident); ok {
					return id.Name
				}
			}
		case *ast.ValueSpec:
			if len(s.Names) == 1 {
				return s.Names[0].Name
			}
		case *ast.FuncDecl:
			return s.Name.Name
		}
	}
	return ""
}

func (c *checker) exprString(x ast.Expr) string {
	s := types.ExprString(x)
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func (c *checker) line(pos token.Pos) string {
	return fmt.Sprint(c.pass.Fset.Position(pos).Line)
}

func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

func pointee(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// calleeObject is the object an identifier or selector denotes.
func calleeObject(info *types.Info, x ast.Expr) types.Object {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		return info.ObjectOf(x)
	case *ast.SelectorExpr:
		return info.ObjectOf(x.Sel)
	case *ast.IndexExpr:
		return calleeObject(info, x.X)
	case *ast.IndexListExpr:
		return calleeObject(info, x.X)
	}
	return nil
}

// typeutilCallee is the function or method a call statically calls.
func typeutilCallee(info *types.Info, call *ast.CallExpr) types.Object {
	obj := calleeObject(info, call.Fun)
	if fn, ok := obj.(*types.Func); ok {
		return fn.Origin()
	}
	return obj
}

// objectKey is "pkgpath.Name" for a package-level object.
func objectKey(obj types.Object) string {
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

func shortName(fn *types.Func) string {
	if fn.Pkg() == nil {
		return fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}
