package ssautil_test

import (
	"slices"
	"testing"

	"github.com/bhlint/bhlint/internal/ssautil"
	"github.com/bhlint/bhlint/internal/testpkgs"
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
	pkg := testpkgs.Types(t, src)[0]
	var got []string
	for named := range ssautil.ConcreteTypes(pkg) {
		got = append(got, named.Obj().Name())
	}
	if want := []string{"ID", "Store"}; !slices.Equal(got, want) {
		t.Errorf("ConcreteTypes = %v, want %v", got, want)
	}
}
