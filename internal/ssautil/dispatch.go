package ssautil

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// DispatchTables resolves a call of a function looked up by a constant key
// in a package-level map of functions written as a literal (a database
// layer's var SQLITE_FUNCTIONS = map[string]interface{}{FETCH_ALL:
// sqliteFetchRecords}, called as getCurrentDB()[FETCH_ALL].(func(string)
// …)(table)) to the functions the package's tables store under that key.
// The map is the global the call loads, or any global a function of the
// package returns when the call looks up its result (getCurrentDB picks a
// backend's table at run time): each table's function under the key may
// be the one that runs. A key no table has, a key that is not a constant,
// or a map that is not such a global resolves to nothing.
type DispatchTables struct {
	prog   *ssa.Program
	pkg    *types.Package
	tables map[*types.Var]map[string][]*types.Func // by the global, then the key's exact constant
}

// NewDispatchTables reads the package's map literals of functions.
func NewDispatchTables(prog *ssa.Program, pkg *types.Package, info *types.Info, files []*ast.File) *DispatchTables {
	d := &DispatchTables{prog: prog, pkg: pkg, tables: map[*types.Var]map[string][]*types.Func{}}
	for _, f := range files {
		for id, value := range PackageVars(f) {
			v, ok := info.Defs[id].(*types.Var)
			if !ok {
				continue
			}
			if table := funcTable(info, value); len(table) > 0 {
				d.tables[v] = table
			}
		}
	}
	return d
}

// funcTable is a map literal's functions by constant key: the entries whose
// value names a declared function (or method expression); nil for any
// other expression.
func funcTable(info *types.Info, e ast.Expr) map[string][]*types.Func {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return nil
	}
	if _, isMap := info.TypeOf(lit).Underlying().(*types.Map); !isMap {
		return nil
	}
	table := map[string][]*types.Func{}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key := info.Types[kv.Key].Value
		fn := namedFunc(info, kv.Value)
		if key == nil || fn == nil {
			continue
		}
		table[key.ExactString()] = append(table[key.ExactString()], fn)
	}
	return table
}

func namedFunc(info *types.Info, e ast.Expr) *types.Func {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[e].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := info.Uses[e.Sel].(*types.Func)
		return fn
	}
	return nil
}

// Of returns the functions a dynamic call may run when it calls a function
// looked up in one of the package's tables, or drawn from a list of
// functions the function writes out (ListedFuncs), else nil.
func (d *DispatchTables) Of(common *ssa.CallCommon) []*ssa.Function {
	if d == nil || common.IsInvoke() || common.StaticCallee() != nil {
		return nil
	}
	if listed := ListedFuncs(common.Value); listed != nil {
		return listed
	}
	if len(d.tables) == 0 {
		return nil
	}
	lookup, ok := unconverted(common.Value).(*ssa.Lookup)
	if !ok {
		return nil
	}
	key, ok := lookup.Index.(*ssa.Const)
	if !ok || key.Value == nil {
		return nil
	}
	var out []*ssa.Function
	for _, global := range d.globalsOf(lookup.X) {
		for _, fn := range d.tables[global][key.Value.ExactString()] {
			if f := d.prog.FuncValue(fn); f != nil && !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// unconverted strips the type assertion between the table's element and
// the call (m[k].(func(string) error), with or without its comma-ok) and
// the conversions SameValue strips.
func unconverted(v ssa.Value) ssa.Value {
	for {
		switch x := SameValue(v).(type) {
		case *ssa.TypeAssert:
			v = x.X
		case *ssa.Extract: // the value of a comma-ok lookup or assertion
			if x.Index != 0 {
				return x
			}
			v = x.Tuple
		default:
			return x
		}
	}
}

// globalsOf are the package's table globals the map value m may be: the one
// it loads, or those a function of the package returns when m is its
// result.
func (d *DispatchTables) globalsOf(m ssa.Value) []*types.Var {
	if g := d.loadedTable(m); g != nil {
		return []*types.Var{g}
	}
	call, ok := m.(*ssa.Call)
	if !ok {
		return nil
	}
	callee := call.Common().StaticCallee()
	if callee == nil || callee.Pkg == nil || callee.Pkg.Pkg != d.pkg {
		return nil
	}
	var out []*types.Var
	for _, b := range callee.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		if g := d.loadedTable(ret.Results[0]); g != nil && !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// loadedTable is the table global v loads, or nil.
func (d *DispatchTables) loadedTable(v ssa.Value) *types.Var {
	load, ok := v.(*ssa.UnOp)
	if !ok {
		return nil
	}
	g, ok := load.X.(*ssa.Global)
	if !ok {
		return nil
	}
	obj, _ := g.Object().(*types.Var)
	if _, isTable := d.tables[obj]; !isTable {
		return nil
	}
	return obj
}

// ListedFuncs returns the functions of a slice or array literal of
// functions that v is an element of: a flow written as a list of steps,
// for _, step := range []func() error{ctx.getDevice, ctx.validate,
// ctx.sendAccept} { if err := step(); … } (chirpstack's join and uplink
// flows, run inside one transaction), calls each of them in turn. Nil when
// v is not read from such a literal, or when an element of it is not a
// function or method value written there (a parameter, a field: then any
// function may run).
func ListedFuncs(v ssa.Value) []*ssa.Function {
	load, ok := SameValue(v).(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	elem, ok := load.X.(*ssa.IndexAddr)
	if !ok {
		return nil
	}
	base := elem.X
	if slice, ok := base.(*ssa.Slice); ok {
		base = slice.X
	}
	list, ok := base.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []*ssa.Function
	for _, ref := range *list.Referrers() {
		addr, ok := ref.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, use := range *addr.Referrers() {
			store, ok := use.(*ssa.Store)
			if !ok || store.Addr != addr {
				continue
			}
			fn := FuncOf(store.Val)
			if fn == nil {
				return nil
			}
			fn = unbound(fn)
			if !slices.Contains(out, fn) {
				out = append(out, fn)
			}
		}
	}
	return out
}
