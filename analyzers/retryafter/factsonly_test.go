package retryafter_test

import (
	"fmt"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/retryafter"
	"github.com/bhlint/bhlint/internal/lazyssa"
)

// quiet drops analysistest's expectation errors: in a facts-only run no
// diagnostic is expected to be reported.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}

// exported lists the facts each root package exports, as text.
func exported(results []*analysistest.Result) map[string][]string {
	out := map[string][]string{}
	for _, r := range results {
		if r.Err != nil {
			out[r.Pass.Pkg.Path()] = append(out[r.Pass.Pkg.Path()], "error: "+r.Err.Error())
		}
		for obj, facts := range r.Facts {
			for _, f := range facts {
				name := "package"
				if obj != nil {
					name = obj.String()
				}
				out[r.Pass.Pkg.Path()] = append(out[r.Pass.Pkg.Path()], fmt.Sprintf("%s: %v", name, f))
			}
		}
		slices.Sort(out[r.Pass.Pkg.Path()])
	}
	return out
}

// TestFactsOnly: a package analysed only for its facts (go vet's VetxOnly)
// exports the same facts as one analysed for diagnostics, though the pass
// skips what only reports and leaves early a package that can export none.
func TestFactsOnly(t *testing.T) {
	dir := modules(t)
	runs := []struct {
		dir  string
		pkgs []string
	}{
		{dir, []string{"./..."}},
		{analysistest.TestData(), []string{"shedding", "handlers", "fixes"}},
	}
	for _, run := range runs {
		full := exported(analysistest.Run(quiet{}, run.dir, retryafter.Analyzer, run.pkgs...))
		lazyssa.SetFactsOnly(true)
		only := exported(analysistest.Run(quiet{}, run.dir, retryafter.Analyzer, run.pkgs...))
		lazyssa.SetFactsOnly(false)
		if len(full) == 0 {
			t.Fatalf("%v: no facts exported at all", run.pkgs)
		}
		for pkg, facts := range full {
			if !slices.Equal(facts, only[pkg]) {
				t.Errorf("%s: facts-only run exported\n%q\nwant\n%q", pkg, only[pkg], facts)
			}
		}
		for pkg, facts := range only {
			if _, ok := full[pkg]; !ok {
				t.Errorf("%s: facts-only run exported %q, the full run none", pkg, facts)
			}
		}
	}
}
