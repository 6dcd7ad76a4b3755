package netio

import (
	"go/types"
	"testing"

	"github.com/bhlint/bhlint/internal/testpkgs"
)

// Name writes a receiver directly for named types; it must write what the
// type printer writes, for generic, aliased and interface receivers too.
func TestNameIsThePrinters(t *testing.T) {
	const src = `package p

type List[T any] struct{ items []T }

func (l *List[T]) Push(v T) {}
func (l List[T]) Len() int  { return 0 }

type Base struct{}

func (Base) Close() error { return nil }

type Alias = Base

func (a *Alias) Reset() {}

type Store interface{ Get(key string) (string, error) }
`
	pkgs := testpkgs.Types(t, src, "net/http", "database/sql", "sync/atomic")
	checked := 0
	for _, p := range pkgs {
		for _, name := range p.Scope().Names() {
			tn, ok := p.Scope().Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			for _, typ := range []types.Type{tn.Type(), types.NewPointer(tn.Type())} {
				mset := types.NewMethodSet(typ)
				for i := range mset.Len() {
					fn := mset.At(i).Obj().(*types.Func)
					want := "(" + types.TypeString(fn.Signature().Recv().Type(), func(p *types.Package) string { return p.Name() }) + ")." + fn.Name()
					if got := Name(fn); got != want {
						t.Errorf("Name(%s) = %q, want %q", fn.FullName(), got, want)
					}
					checked++
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d methods checked", checked)
	}
}
