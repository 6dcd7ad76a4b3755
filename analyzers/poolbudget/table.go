package poolbudget

import (
	"errors"
	"fmt"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// Table is the arithmetic of every main package among pkgs against each
// database and dependency its .bhlint.yml declares, within the limits or
// not: what `bhlint lanes` prints as its connection budgets. pkgs must be
// loaded with the syntax and types of all their dependencies
// (packages.LoadAllSyntax), which `bhlint lanes` loads anyway; the facts
// go from package to package in memory.
func Table(pkgs []*packages.Package) ([]Row, error) {
	facts := map[factKey]analysis.Fact{}
	pkgFacts := map[*types.Package][]analysis.PackageFact{}
	var rows []Row
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types == nil || p.TypesInfo == nil || len(p.Syntax) == 0 {
			return
		}
		found, err := tableOf(p, facts, pkgFacts)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", p.PkgPath, err))
		}
		rows = append(rows, found...)
	})
	slices.SortFunc(rows, func(a, b Row) int {
		return strings.Compare(a.Command+"\x00"+a.Target, b.Command+"\x00"+b.Target)
	})
	return rows, errors.Join(errs...)
}

// factKey is an object and the type of one of its facts.
type factKey struct {
	obj types.Object
	typ reflect.Type
}

// tableOf runs the analysis of one package with facts kept in memory.
func tableOf(p *packages.Package, facts map[factKey]analysis.Fact, pkgFacts map[*types.Package][]analysis.PackageFact) (rows []Row, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: poolbudget panicked: %v", r)
		}
	}()
	pass := &analysis.Pass{
		Analyzer: Analyzer, Fset: p.Fset, Files: p.Syntax, Pkg: p.Types, TypesInfo: p.TypesInfo,
		TypesSizes: p.TypesSizes, Report: func(analysis.Diagnostic) {},
		ImportObjectFact: func(obj types.Object, f analysis.Fact) bool {
			got, ok := facts[factKey{obj, reflect.TypeOf(f)}]
			if ok {
				reflect.ValueOf(f).Elem().Set(reflect.ValueOf(got).Elem())
			}
			return ok
		},
		ExportObjectFact: func(obj types.Object, f analysis.Fact) { facts[factKey{obj, reflect.TypeOf(f)}] = f },
		ExportPackageFact: func(f analysis.Fact) {
			pkgFacts[p.Types] = append(pkgFacts[p.Types], analysis.PackageFact{Package: p.Types, Fact: f})
		},
		// The package facts of the packages p imports, directly or not,
		// as a driver gives them: not those of every package visited.
		AllPackageFacts: func() []analysis.PackageFact {
			var all []analysis.PackageFact
			for _, dep := range dependencies(p.Types) {
				all = append(all, pkgFacts[dep]...)
			}
			return all
		},
	}
	return budgets(pass)
}

// dependencies are the packages pkg imports, directly or not, and pkg.
func dependencies(pkg *types.Package) []*types.Package {
	seen := map[*types.Package]bool{}
	var out []*types.Package
	var visit func(*types.Package)
	visit = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	visit(pkg)
	return out
}
