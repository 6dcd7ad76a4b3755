package retrystorm_test

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/retrystorm"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

// TestFactsOnly: a package analysed only for its facts (go vet's VetxOnly)
// exports the Sleeps facts of its exported functions exactly as a package
// analysed for diagnostics does, and works out no others (no other package
// can call them).
func TestFactsOnly(t *testing.T) {
	pkgs := []string{"backoffx", "retries", "readers"}
	full := testpkgs.Facts(analysistest.Run(testpkgs.Quiet{}, analysistest.TestData(), retrystorm.Analyzer, pkgs...))
	lazyssa.SetFactsOnly(true)
	only := testpkgs.Facts(analysistest.Run(testpkgs.Quiet{}, analysistest.TestData(), retrystorm.Analyzer, pkgs...))
	lazyssa.SetFactsOnly(false)
	kept, skipped := 0, 0
	for _, pkg := range pkgs {
		var want []string
		for _, f := range full[pkg] {
			if callable(f) {
				want = append(want, f)
				kept++
			} else {
				skipped++
			}
		}
		if !slices.Equal(only[pkg], want) {
			t.Errorf("%s: facts-only run exported\n%q\nwant\n%q", pkg, only[pkg], want)
		}
	}
	if kept == 0 || skipped == 0 {
		t.Errorf("the full run exported %d facts on exported functions, %d on unexported ones: the test needs both", kept, skipped)
	}
}

// callable reports whether a fact, as testpkgs.Facts prints it, is on an
// exported function or method ("func pkg.Name(...)", "func (T).Name(...)").
func callable(fact string) bool {
	name, _, _ := strings.Cut(fact, "(")
	if strings.HasPrefix(fact, "func (") {
		_, rest, _ := strings.Cut(fact, ").")
		name, _, _ = strings.Cut(rest, "(")
	} else {
		name = name[strings.LastIndex(name, ".")+1:]
	}
	return name != "" && strings.ToUpper(name[:1]) == name[:1]
}
