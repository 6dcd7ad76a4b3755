package retryafter_test

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/retryafter"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

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
		{analysistest.TestData(), []string{"shedding", "handlers", "fixes", "errhelper", "errcaller"}},
	}
	for _, run := range runs {
		full := testpkgs.Facts(analysistest.Run(testpkgs.Quiet{}, run.dir, retryafter.Analyzer, run.pkgs...))
		lazyssa.SetFactsOnly(true)
		only := testpkgs.Facts(analysistest.Run(testpkgs.Quiet{}, run.dir, retryafter.Analyzer, run.pkgs...))
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
