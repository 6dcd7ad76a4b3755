package lazyssa

import (
	"go/ast"
	"go/types"
	"slices"
)

// withoutDataTables returns info with the package-level initializers that
// only fill a table with constants left out of InitOrder, or info itself
// when there are none. ssa.Package.Build turns InitOrder into the synthetic
// package initializer, and a table of a few thousand constants becomes tens
// of thousands of instructions: in github.com/andybalholm/brotli (a
// dependency of net/http compression middleware) its static dictionaries
// cost 110 MB of SSA, most of a 320 MB process, for a function no pass
// reads. No pass can find anything in such an initializer: it calls
// nothing, creates no pool, client, goroutine or channel, and takes no
// address. The global itself stays a member of the package.
func withoutDataTables(info *types.Info) *types.Info {
	var kept []*types.Initializer
	for i, init := range info.InitOrder {
		if isDataTable(info, init.Rhs) {
			if kept == nil {
				kept = append([]*types.Initializer{}, info.InitOrder[:i]...)
			}
			continue
		}
		if kept != nil {
			kept = append(kept, init)
		}
	}
	if kept == nil {
		return info
	}
	trimmed := *info
	trimmed.InitOrder = kept
	return &trimmed
}

// isDataTable reports whether e is an array, slice or map literal whose
// every element is a constant, or again such a literal (a struct literal of
// constants is allowed inside, as a table row); or a struct literal of
// constants with such a table in a field, a table with its header
// (golang.org/x/text's code pages: Charmap{name: …, decode: [256]utf8Enc{…}}).
// A struct literal of constants alone is a setting, not a table, and stays:
// it costs nothing to build.
func isDataTable(info *types.Info, e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return false
	}
	switch info.TypeOf(lit).Underlying().(type) {
	case *types.Array, *types.Slice, *types.Map:
		return constantElems(info, lit)
	case *types.Struct:
		return constantElems(info, lit) && slices.ContainsFunc(lit.Elts, func(elt ast.Expr) bool {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			return isDataTable(info, elt)
		})
	}
	return false
}

func constantElems(info *types.Info, lit *ast.CompositeLit) bool {
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if _, isField := info.TypeOf(lit).Underlying().(*types.Struct); !isField && !isConstant(info, kv.Key) {
				return false
			}
			elt = kv.Value
		}
		if !isConstant(info, elt) {
			return false
		}
	}
	return true
}

// isConstant: a constant expression, or a composite literal made of
// constants (a row of a table; an elided &T{...} row too, which is data).
func isConstant(info *types.Info, e ast.Expr) bool {
	e = ast.Unparen(e)
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		return true
	}
	lit, ok := e.(*ast.CompositeLit)
	return ok && constantElems(info, lit)
}
