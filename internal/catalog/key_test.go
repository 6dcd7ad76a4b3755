package catalog

import (
	"go/types"
	"testing"

	"github.com/bhlint/bhlint/internal/testpkgs"
)

func TestWithoutTypeParams(t *testing.T) {
	for in, want := range map[string]string{
		"(*github.com/bhlint/bhlint/bulkhead/lanedb.DB[L]).Conn": "(*github.com/bhlint/bhlint/bulkhead/lanedb.DB).Conn",
		"(*example.com/x.Map[K, V]).Get":                         "(*example.com/x.Map).Get",
		"(*example.com/x.T[example.com/y.List[int]]).M":          "(*example.com/x.T).M",
		"(*net/http.Client).Do":                                  "(*net/http.Client).Do",
		"github.com/jackc/pgx/v5.CollectRows":                    "github.com/jackc/pgx/v5.CollectRows",
	} {
		if got := withoutTypeParams(in); got != want {
			t.Errorf("withoutTypeParams(%q) = %q, want %q", in, got, want)
		}
	}
}

// The direct Key must name every function as the full name does, for
// methods of generic, aliased, embedded and interface types alike.
func TestKeyIsTheFullName(t *testing.T) {
	const src = `package p

type List[T any] struct{ items []T }

func (l *List[T]) Push(v T) { l.items = append(l.items, v) }
func (l List[T]) Len() int  { return len(l.items) }

type Store interface{ Get(key string) (string, error) }

type Base struct{}

func (Base) Close() error { return nil }

type Wrapped struct{ Base }

type Alias = Base

func (a *Alias) Reset() {}

func Open[K comparable, V any](m map[K]V) *List[V] { return nil }

func Plain() {}

var Literal interface{ Name() string }
`
	var funcs []*types.Func
	for _, p := range testpkgs.Types(t, src, "net/http", "database/sql") {
		funcs = append(funcs, allFuncs(p)...)
	}
	if len(funcs) < 100 {
		t.Fatalf("only %d functions to compare", len(funcs))
	}
	for _, fn := range funcs {
		if got, want := Key(fn), slowKey(fn); got != want {
			t.Errorf("Key(%s) = %q, want %q", fn, got, want)
		}
	}
	literals := 0
	extra := []types.Type{types.NewPointer(types.NewStruct(nil, nil)), types.NewPointer(types.NewPointer(types.NewSlice(types.Typ[types.Byte])))}
	for _, typ := range append(allTypes(funcs), extra...) {
		want := slowTypeKey(typ)
		if isLiteral(typ) {
			want = "" // no table holds a type literal
			literals++
		}
		if got := TypeKey(typ); got != want {
			t.Errorf("TypeKey(%s) = %q, want %q", typ, got, want)
		}
	}
	if literals == 0 {
		t.Errorf("no type literal among the types compared")
	}
	if got := Key(sqlxMethod("Get")); got != "(*github.com/jmoiron/sqlx.DB).Get" {
		t.Errorf("Key of a pointer method = %q", got)
	}
}

// allFuncs are a package's functions and the methods of its types (their
// own, promoted and interface methods).
func allFuncs(pkg *types.Package) []*types.Func {
	var out []*types.Func
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		switch obj := scope.Lookup(name).(type) {
		case *types.Func:
			out = append(out, obj)
		case *types.TypeName:
			for _, t := range []types.Type{obj.Type(), types.NewPointer(obj.Type())} {
				mset := types.NewMethodSet(t)
				for i := range mset.Len() {
					out = append(out, mset.At(i).Obj().(*types.Func))
				}
			}
		case *types.Var:
			mset := types.NewMethodSet(obj.Type())
			for i := range mset.Len() {
				out = append(out, mset.At(i).Obj().(*types.Func))
			}
		}
	}
	return out
}

// slowTypeKey is TypeKey as the type printer alone makes it.
func slowTypeKey(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		return "*" + slowTypeKey(p.Elem())
	}
	if named, ok := types.Unalias(t).(*types.Named); ok && named.TypeArgs().Len() > 0 {
		obj := named.Origin().Obj()
		return obj.Pkg().Path() + "." + obj.Name()
	}
	return types.TypeString(t, nil)
}

// allTypes are the receiver, parameter and result types of funcs.
func allTypes(funcs []*types.Func) []types.Type {
	var out []types.Type
	for _, fn := range funcs {
		sig := fn.Signature()
		if sig.Recv() != nil {
			out = append(out, sig.Recv().Type())
		}
		for _, tuple := range []*types.Tuple{sig.Params(), sig.Results()} {
			for v := range tuple.Variables() {
				out = append(out, v.Type())
			}
		}
	}
	return out
}

// isLiteral reports whether t, under its pointers, is a type literal.
func isLiteral(t types.Type) bool {
	for {
		p, ok := t.(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	switch t.(type) {
	case *types.Named, *types.Alias, *types.Basic:
		return false
	}
	return true
}
