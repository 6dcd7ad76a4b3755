package entrypoints

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// A function literal stored in a field of a struct that another module
// declares (cobra's &cobra.Command{RunE: func…}, cmd.Action = func…) is a
// command: the framework runs it once, when the command line names it, not
// when the enclosing function runs. A literal stored in the program's own
// struct, passed as an argument (errgroup's Go, sync.Once's Do) or called
// stays part of the function.

// CommandField is the field of another module's struct that parent (the
// node above lit) stores lit in — the key of a composite literal's
// element, or the field an assignment selects — or nil.
func CommandField(pass *analysis.Pass, parent ast.Node, lit *ast.FuncLit) *types.Var {
	var id *ast.Ident
	switch parent := parent.(type) {
	case *ast.KeyValueExpr:
		if parent.Value == lit {
			id, _ = parent.Key.(*ast.Ident)
		}
	case *ast.AssignStmt:
		if i := slices.Index(parent.Rhs, ast.Expr(lit)); i >= 0 && len(parent.Lhs) == len(parent.Rhs) {
			if sel, ok := parent.Lhs[i].(*ast.SelectorExpr); ok {
				id = sel.Sel
			}
		}
	}
	if id == nil {
		return nil
	}
	field, ok := pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok || !field.IsField() || SameModule(pass, field.Pkg()) {
		return nil
	}
	return field
}

// CommandAt is the innermost function literal on stack (the path from a
// function's body down to a node) that is stored in a framework's field,
// and that field; nil, nil when there is none.
func CommandAt(pass *analysis.Pass, stack []ast.Node) (*ast.FuncLit, *types.Var) {
	for i := len(stack) - 1; i > 0; i-- {
		if lit, ok := stack[i].(*ast.FuncLit); ok {
			if field := CommandField(pass, stack[i-1], lit); field != nil {
				return lit, field
			}
		}
	}
	return nil, nil
}

// SameModule reports whether pkg is in the analysed package's module.
// Without module information (a GOPATH-style test), packages whose paths
// begin with the same element are.
func SameModule(pass *analysis.Pass, pkg *types.Package) bool {
	if pkg == nil {
		return true
	}
	mine := pass.Pkg.Path()
	if mod := pass.Module; mod != nil && mod.Path != "" {
		mine = mod.Path
		return pkg.Path() == mine || strings.HasPrefix(pkg.Path(), mine+"/")
	}
	first := func(path string) string { f, _, _ := strings.Cut(path, "/"); return f }
	return first(pkg.Path()) == first(mine)
}
