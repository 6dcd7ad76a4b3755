package testpkgs

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// Types type-checks src as the package example.com/p and returns it, then
// the packages of imports as export data gives them: for tests that compare
// a helper with the type printer's or objectpath's answer over many real
// objects. It fails the test when any does not load.
func Types(t testing.TB, src string, imports ...string) []*types.Package {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("example.com/p", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	pkgs := []*types.Package{pkg}
	for _, path := range imports {
		imp, err := importer.Default().Import(path)
		if err != nil {
			t.Fatalf("importing %s: %v", path, err)
		}
		pkgs = append(pkgs, imp)
	}
	return pkgs
}
