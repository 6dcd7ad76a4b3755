package ssautil

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// maxHandOn is how many parameters a function value is followed through on
// its way into a field: post(a, path, a.Login) hands a.Login to post, which
// hands it to route{handler: handler}; a router's get, post and add are
// rarely deeper.
const maxHandOn = 3

// FieldCallees resolves a call through a func-typed field of a package's own
// struct types (r.handler(c, req)) to the functions the package stores in
// that field: directly (&Job{Run: f}, s.run = f), or handed to a parameter
// of one of the package's functions that stores it there (post(a,
// "/login", a.Login), whose body builds route{handler: handler}). Fields
// of generic types are one field whatever the type arguments. A field of
// another package's type is not resolved: who else stores into it is not
// known here. The resolution is flow-insensitive: any function the package
// stores in the field may be the one a call through it runs.
type FieldCallees struct {
	pkg    *types.Package
	stored map[*types.Var][]*ssa.Function
	calls  map[*ssa.Function][]*ssa.CallCommon // static calls in funcs, by their callee's origin
}

// NewFieldCallees indexes the stores into func-typed fields among funcs'
// instructions.
func NewFieldCallees(pkg *types.Package, funcs []*ssa.Function) *FieldCallees {
	f := &FieldCallees{pkg: pkg, stored: map[*types.Var][]*ssa.Function{}, calls: map[*ssa.Function][]*ssa.CallCommon{}}
	var stores []*ssa.Store
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case ssa.CallInstruction:
					if callee := instr.Common().StaticCallee(); callee != nil {
						o := Origin(callee)
						f.calls[o] = append(f.calls[o], instr.Common())
					}
				case *ssa.Store:
					stores = append(stores, instr)
				}
			}
		}
	}
	for _, st := range stores {
		fa, ok := st.Addr.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		ptr, ok := fa.X.Type().Underlying().(*types.Pointer)
		if !ok {
			continue
		}
		field := f.ownFuncField(StructField(ptr.Elem(), fa.Field))
		if field == nil {
			continue
		}
		for _, fn := range f.funcsOf(st.Val, maxHandOn) {
			if !slices.Contains(f.stored[field], fn) {
				f.stored[field] = append(f.stored[field], fn)
			}
		}
	}
	return f
}

// Of returns the functions a dynamic call through one of the package's
// func-typed fields may run, and that field, or nil for any other call.
func (f *FieldCallees) Of(common *ssa.CallCommon) ([]*ssa.Function, *types.Var) {
	if common.IsInvoke() || common.StaticCallee() != nil {
		return nil, nil
	}
	return f.OfValue(common.Value)
}

// OfValue returns the functions a function value loaded from one of the
// package's func-typed fields may be (j.run, r.handler), and that field,
// or nil for any other value.
func (f *FieldCallees) OfValue(v ssa.Value) ([]*ssa.Function, *types.Var) {
	var field *types.Var
	switch x := v.(type) {
	case *ssa.UnOp:
		fa, ok := x.X.(*ssa.FieldAddr)
		if !ok || x.Op != token.MUL {
			return nil, nil
		}
		if ptr, ok := fa.X.Type().Underlying().(*types.Pointer); ok {
			field = StructField(ptr.Elem(), fa.Field)
		}
	case *ssa.Field:
		field = StructField(x.X.Type(), x.Field)
	}
	if field = f.ownFuncField(field); field != nil {
		return f.stored[field], field
	}
	return nil, nil
}

// ownFuncField is v's declared field (its origin, for a generic type's) if
// it is a func-typed field of the package's own types, else nil.
func (f *FieldCallees) ownFuncField(v *types.Var) *types.Var {
	if v == nil {
		return nil
	}
	v = v.Origin()
	if v.Pkg() != f.pkg {
		return nil
	}
	if _, ok := v.Type().Underlying().(*types.Signature); !ok {
		return nil
	}
	return v
}

// funcsOf is the functions v may be: a function, a closure or a bound
// method value (a.Login, the method itself), what a factory the package
// calls returns (Create: CreateTransfer(repo), returning the handler
// literal), or a parameter, followed to the arguments every static call of
// its function hands it.
func (f *FieldCallees) funcsOf(v ssa.Value, depth int) []*ssa.Function {
	if fn := FuncOf(v); fn != nil {
		return []*ssa.Function{unbound(fn)}
	}
	if depth == 0 {
		return nil
	}
	if call, ok := v.(*ssa.Call); ok {
		return returnedFuncs(call)
	}
	p, ok := v.(*ssa.Parameter)
	if !ok {
		return nil
	}
	fn := Origin(p.Parent())
	i := slices.Index(fn.Params, p)
	if i < 0 {
		return nil
	}
	var out []*ssa.Function
	for _, call := range f.calls[fn] {
		if i >= len(call.Args) {
			continue
		}
		for _, g := range f.funcsOf(call.Args[i], depth-1) {
			if !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return out
}

// unbound is the method a bound method value's wrapper calls (a.Login's
// wrapper is (*API).Login), else fn.
func unbound(fn *ssa.Function) *ssa.Function {
	if fn.Synthetic == "" || fn.Prog == nil {
		return fn
	}
	if m, ok := fn.Object().(*types.Func); ok && m.Signature().Recv() != nil {
		if real := fn.Prog.FuncValue(m); real != nil {
			return real
		}
	}
	return fn
}

// returnedFuncs is the functions a static call of a function with a body
// returns as its one func-typed result.
func returnedFuncs(call *ssa.Call) []*ssa.Function {
	callee := call.Common().StaticCallee()
	if _, isFunc := call.Type().Underlying().(*types.Signature); !isFunc || callee == nil {
		return nil
	}
	var out []*ssa.Function
	for _, b := range callee.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) != 1 {
			continue
		}
		if fn := FuncOf(ret.Results[0]); fn != nil && !slices.Contains(out, unbound(fn)) {
			out = append(out, unbound(fn))
		}
	}
	return out
}
