// Package pkgscope answers the question every bhlint pass asks first: can
// this package contain the pattern at all? Most packages of a large build
// cannot, and a pass that stops there costs almost nothing.
package pkgscope

import (
	"go/types"
	"iter"
)

// Reaches reports whether pkg is, or imports directly or transitively, one of
// the given import paths.
func Reaches(pkg *types.Package, paths []string) bool {
	want := make(map[string]bool, len(paths))
	for _, p := range paths {
		want[p] = true
	}
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package) bool
	visit = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		if want[p.Path()] {
			return true
		}
		for _, imp := range p.Imports() {
			if visit(imp) {
				return true
			}
		}
		return false
	}
	return visit(pkg)
}

// Interfaces yields the interface types the package declares, by name.
func Interfaces(pkg *types.Package) iter.Seq2[*types.TypeName, *types.Interface] {
	return func(yield func(*types.TypeName, *types.Interface) bool) {
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			iface, ok := tn.Type().Underlying().(*types.Interface)
			if ok && !yield(tn, iface) {
				return
			}
		}
	}
}
