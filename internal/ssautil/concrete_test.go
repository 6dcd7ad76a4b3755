package ssautil_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"testing"

	"github.com/bhlint/bhlint/internal/ssautil"
)

// TestConcreteTypes: only the declared, non-generic, non-interface named
// types, in name order; aliases, interfaces and generic types are left out.
func TestConcreteTypes(t *testing.T) {
	const src = `package p
type Store struct{}
type Alias = Store
type Pinger interface{ Ping() error }
type Box[T any] struct{ v T }
type ID int
var v Store
func f() {}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for named := range ssautil.ConcreteTypes(pkg) {
		got = append(got, named.Obj().Name())
	}
	if want := []string{"ID", "Store"}; !slices.Equal(got, want) {
		t.Errorf("ConcreteTypes = %v, want %v", got, want)
	}
}
