package suite_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/suite"
)

// TestFactTypesDeclared: every type an analyzer's package marks as a fact
// (an AFact method) is in its FactTypes. go vet -vettool gob-encodes facts
// and knows only the declared types, so an undeclared one fails every
// package that exports it ("gob: type not registered"), while
// analysistest, which encodes each fact by its own concrete type, passes.
func TestFactTypesDeclared(t *testing.T) {
	suite.ForEach(suite.Analyzers(), func(a *analysis.Analyzer) {
		declared := map[string]bool{}
		for _, f := range a.FactTypes {
			declared[reflect.TypeOf(f).Elem().Name()] = true
		}
		for path := range packagesOf(a) {
			for _, name := range factTypesIn(t, path) {
				if !declared[name] {
					t.Errorf("%s: %s has an AFact method but is not in FactTypes", a.Name, name)
				}
			}
		}
	})
}

// packagesOf are the import paths of the packages that define a's fact
// types and its Run (which may be a wrapper of another package's: guard's).
func packagesOf(a *analysis.Analyzer) map[string]bool {
	out := map[string]bool{}
	for _, f := range a.FactTypes {
		out[reflect.TypeOf(f).Elem().PkgPath()] = true
	}
	name := runtime.FuncForPC(reflect.ValueOf(a.Run).Pointer()).Name()
	slash := strings.LastIndex(name, "/")
	out[name[:slash+strings.Index(name[slash:], ".")]] = true
	return out
}

// factTypesIn are the names of the receiver types of the AFact methods
// declared in the non-test files of the package at path.
func factTypesIn(t *testing.T, path string) []string {
	pkg, err := build.Import(path, ".", 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, file := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, pkg.Dir+"/"+file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || fd.Name.Name != "AFact" {
				continue
			}
			recv := fd.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			if id, ok := recv.(*ast.Ident); ok {
				out = append(out, id.Name)
			}
		}
	}
	return out
}
