package objpath

import (
	"go/types"
	"testing"

	"golang.org/x/tools/go/types/objectpath"

	"github.com/bhlint/bhlint/internal/testpkgs"
)

// Every interface method, of a package type-checked from source (embedded,
// shared and generic interfaces) and of packages read from export data, gets
// the path objectpath gives it, and the path decodes back to it.
func TestInterfaceMethodPaths(t *testing.T) {
	const src = `package p

type Reader interface{ Read(p []byte) (int, error) }

type ReadCloser interface {
	Reader
	Close() error
}

type Store interface {
	Get(key string) (string, error)
	Put(key, value string) error
}

type Generic[T any] interface{ Load() T }

type impl struct{}

func (impl) Get(key string) (string, error) { return "", nil }

var Anonymous interface{ Name() string }
`
	pkgs := testpkgs.Types(t, src, "net/http", "database/sql/driver", "io", "context")
	pkg := pkgs[0]
	var p Paths
	var enc objectpath.Encoder
	checked := 0
	for _, pkg := range pkgs {
		for _, m := range interfaceMethods(pkg) {
			got, gotErr := p.For(m)
			want, wantErr := enc.For(m)
			if got != want || (gotErr == nil) != (wantErr == nil) {
				t.Errorf("%s: For = %q, %v; objectpath gives %q, %v", m.FullName(), got, gotErr, want, wantErr)
				continue
			}
			if gotErr == nil {
				if obj, err := objectpath.Object(m.Pkg(), got); err != nil || obj != m {
					t.Errorf("%s: path %q decodes to %v, %v", m.FullName(), got, obj, err)
				}
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d interface methods checked", checked)
	}
	if len(p.methods[pkg]) == 0 {
		t.Errorf("the index of %s is empty: For answered from the Encoder alone", pkg.Path())
	}
}

// interfaceMethods are the methods of pkg's named interfaces and of its
// variables' interface types.
func interfaceMethods(pkg *types.Package) []*types.Func {
	var out []*types.Func
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if _, ok := obj.(*types.TypeName); !ok {
			if _, ok := obj.(*types.Var); !ok {
				continue
			}
		}
		if iface, ok := obj.Type().Underlying().(*types.Interface); ok {
			for i := range iface.NumMethods() {
				out = append(out, iface.Method(i))
			}
		}
	}
	return out
}
