package sharedpool

import (
	"errors"
	"fmt"

	"golang.org/x/tools/go/analysis"
	analysischecker "golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/bhlint/bhlint/internal/lanes"
)

// LoadMode is the go/packages mode LaneMap needs: syntax and types for the
// packages and every dependency, since lanes flow through facts.
const LoadMode = packages.LoadAllSyntax

// LaneMap runs the analyzer over pkgs (loaded with LoadMode) and their
// dependencies and returns their lane map: each lane's entry points, the
// resources it reaches, and the resources lanes share. Its error joins the
// errors of the packages that could not be analysed; the map of the others
// is still returned.
func LaneMap(pkgs []*packages.Package) (*lanes.Map, error) {
	graph, err := analysischecker.Analyze([]*analysis.Analyzer{Analyzer}, pkgs, nil)
	if err != nil {
		return nil, err
	}
	var sums []*lanes.Summary
	var errs []error
	for act := range graph.All() {
		if act.Analyzer != Analyzer {
			continue
		}
		if act.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %v", act.Package.PkgPath, act.Err))
			continue
		}
		if !act.IsRoot {
			continue
		}
		for _, pf := range act.AllPackageFacts() {
			if s, ok := pf.Fact.(*lanes.Summary); ok {
				sums = append(sums, s)
			}
		}
	}
	return lanes.BuildMap(sums), errors.Join(errs...)
}
