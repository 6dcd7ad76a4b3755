package poolbudget

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/bhlint/bhlint/internal/catalog"
)

// A maximum read from a struct field (db.SetMaxOpenConns(e.config.MaxOpen))
// is whatever the program stores into that field: the functional options
// and configuration structs of real services carry a flag's value into a
// field in one function and read it in another. The field is one name for
// all its values, whatever struct holds it: main counts the worst of the
// values the binary's packages store into it, when every one of them is
// known (a constant, a flag's default), and nothing when one is not.

// FieldStore: the function stores its parameter Param into the integer
// field Field (func WithMaxOpen(n int) Opt { return func(e *engine) {
// e.config.MaxOpen = n } }).
type FieldStore struct {
	Param int
	Field string
}

// fieldValues is the package fact of the budgets a package's code stores
// into integer fields, by field.
type fieldValues struct {
	Values map[string][]Budget
}

func (*fieldValues) AFact() {}

func (f *fieldValues) String() string {
	var parts []string
	for k, bs := range f.Values {
		var vs []string
		for _, b := range bs {
			vs = append(vs, b.String())
		}
		sort.Strings(vs) // stored in the order the package's functions were scanned, which is not fixed
		parts = append(parts, k+" = "+strings.Join(vs, " | "))
	}
	sort.Strings(parts)
	return "fieldValues(" + strings.Join(parts, "; ") + ")"
}

// fieldKey names the integer struct field e selects: the package path, the
// struct type's name and the field's ("example.com/db.config.MaxOpen"), ""
// for anything else (a field of an unnamed struct has no name to share).
func fieldKey(info *types.Info, e ast.Expr) string {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	selection := info.Selections[sel]
	if selection == nil || selection.Kind() != types.FieldVal {
		return ""
	}
	return keyOfField(selection.Recv(), selection.Obj())
}

func keyOfField(recv types.Type, obj types.Object) string {
	if b, ok := obj.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
		return ""
	}
	if p, ok := recv.(*types.Pointer); ok {
		recv = p.Elem()
	}
	named, ok := types.Unalias(recv).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return ""
	}
	return named.Obj().Pkg().Path() + "." + named.Obj().Name() + "." + obj.Name()
}

// storeField records a store into an integer field: its parameter, for
// the callers, or a value.
func (s *scanner) storeField(lhs, rhs ast.Expr) {
	if k := fieldKey(s.c.pass.TypesInfo, lhs); k != "" {
		s.storeValue(k, s.intBudget(rhs, catalog.UnsetUnbounded))
	}
}

// storeKeyed records a keyed field of a struct literal: &config{MaxOpen: n}.
func (s *scanner) storeKeyed(kv *ast.KeyValueExpr) {
	id, ok := kv.Key.(*ast.Ident)
	if !ok {
		return
	}
	info := s.c.pass.TypesInfo
	field, ok := info.ObjectOf(id).(*types.Var)
	if !ok || !field.IsField() {
		return
	}
	lit := s.enclosingLit(kv)
	if lit == nil {
		return
	}
	if k := keyOfField(info.TypeOf(lit), field); k != "" {
		s.storeValue(k, s.intBudget(kv.Value, catalog.UnsetUnbounded))
	}
}

// enclosingLit finds the composite literal whose element kv is; the scan's
// stack is not at hand here, so the function's literals are searched once.
func (s *scanner) enclosingLit(kv *ast.KeyValueExpr) *ast.CompositeLit {
	if s.litOf == nil {
		s.litOf = map[*ast.KeyValueExpr]*ast.CompositeLit{}
		ast.Inspect(s.body, func(n ast.Node) bool {
			if lit, ok := n.(*ast.CompositeLit); ok {
				for _, e := range lit.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						s.litOf[kv] = lit
					}
				}
			}
			return true
		})
	}
	return s.litOf[kv]
}

// storeValue records that field k receives b: a parameter of the function
// is the callers' to give.
func (s *scanner) storeValue(k string, b Budget) {
	if b.State == FromParam {
		s.fieldStores = append(s.fieldStores, FieldStore{Param: b.Param, Field: k})
		return
	}
	if s.c.fieldVals == nil {
		s.c.fieldVals = map[string][]Budget{}
	}
	s.c.fieldVals[k] = append(s.c.fieldVals[k], b)
}

// fieldBudget is the budget main counts for a maximum read from field k:
// the worst of the values stored into it by this package and the packages
// it imports, when all of them are known.
func (c *checker) fieldBudget(k string) Budget {
	values := append([]Budget(nil), c.fieldVals[k]...)
	for _, pf := range c.pass.AllPackageFacts() {
		if f, ok := pf.Fact.(*fieldValues); ok && pf.Package != c.pass.Pkg {
			values = append(values, f.Values[k]...)
		}
	}
	// In no promised order: the worst of equals is the first by what it
	// assumes.
	slices.SortStableFunc(values, func(a, b Budget) int { return strings.Compare(a.Assumed, b.Assumed) })
	if len(values) == 0 {
		return Budget{State: Unknown}
	}
	b := values[0]
	for _, v := range values {
		switch v.State {
		case Known, Unbounded, PgxDefault:
		default:
			return Budget{State: Unknown}
		}
		if v.State == Unbounded && b.State == Unbounded && b.Assumed == "" {
			b = v // the one that names its assumption
		}
		b = worse(b, v)
	}
	if len(values) > 1 {
		b.Assumed = joinAssumed(b.Assumed, fmt.Sprintf("the worst of %d values stored into %s", len(values), shortName(k)))
	}
	return b
}
