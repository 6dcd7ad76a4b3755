// Package pkgscope answers the question every bhlint pass asks first: can
// this package contain the pattern at all? Most packages of a large build
// cannot, and a pass that stops there costs almost nothing.
package pkgscope

import (
	"go/types"
	"iter"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// IsDependency reports whether the analysed package is a dependency's, code
// the user cannot change: a versioned module's (the main module, and one
// replaced by a directory, have no version) or one vendored into the
// program (a file under a vendor directory). The standard library, which
// drivers give no module, is not.
func IsDependency(pass *analysis.Pass) bool {
	if m := pass.Module; m != nil && m.Path != "" && m.Version != "" {
		return true
	}
	for _, f := range pass.Files {
		name := filepath.ToSlash(pass.Fset.File(f.Pos()).Name())
		if strings.Contains(name, "/vendor/") {
			return true
		}
	}
	return false
}

// ModulePath is the path of mod, the module of the analysed package, or
// "" when the driver does not say (a GOPATH-style test).
func ModulePath(mod *analysis.Module) string {
	if mod == nil {
		return ""
	}
	return mod.Path
}

// DeclaredInModule reports whether pkg belongs to mod, the module of the
// analysed package: the program's own code, not a dependency's. Without
// module information (a GOPATH-style test), a package whose path starts
// with a domain (example.com/…) counts, the standard library's do not.
func DeclaredInModule(mod *analysis.Module, pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if mod != nil && mod.Path != "" {
		return pkg.Path() == mod.Path || strings.HasPrefix(pkg.Path(), mod.Path+"/")
	}
	first, _, _ := strings.Cut(pkg.Path(), "/")
	return strings.Contains(first, ".")
}

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

// UsesFunc reports whether the package names a function or method for which
// want holds, by a walk of the objects the type checker recorded: a pass
// whose every finding starts at such a call asks it before it walks any
// function's body or builds SSA.
func UsesFunc(info *types.Info, want func(*types.Func) bool) bool {
	for _, obj := range info.Uses {
		if fn, ok := obj.(*types.Func); ok && want(fn) {
			return true
		}
	}
	return false
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
