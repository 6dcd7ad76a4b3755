package poolbudget

import (
	"errors"
	"fmt"
	"go/types"
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
	facts := map[types.Object]*createsPools{}
	var rows []Row
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Types == nil || p.TypesInfo == nil || len(p.Syntax) == 0 {
			return
		}
		found, err := tableOf(p, facts)
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

// tableOf runs the analysis of one package with facts kept in memory.
func tableOf(p *packages.Package, facts map[types.Object]*createsPools) (rows []Row, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: poolbudget panicked: %v", r)
		}
	}()
	pass := &analysis.Pass{
		Analyzer: Analyzer, Fset: p.Fset, Files: p.Syntax, Pkg: p.Types, TypesInfo: p.TypesInfo,
		TypesSizes: p.TypesSizes, Report: func(analysis.Diagnostic) {},
		ImportObjectFact: func(obj types.Object, f analysis.Fact) bool {
			s, ok := facts[obj]
			if ok {
				*f.(*createsPools) = *s
			}
			return ok
		},
		ExportObjectFact: func(obj types.Object, f analysis.Fact) { facts[obj] = f.(*createsPools) },
	}
	return budgets(pass)
}
