package fairclaim_test

import (
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/fairclaim"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

// TestClaims runs on testdata/claims, a module (its stubs of squirrel and
// gorm are replaced by local directories) with migrations in .sql files at
// its root, so that a claim's table definition is found the way it is in a
// user's module.
func TestClaims(t *testing.T) {
	dir := filepath.Join(analysistest.TestData(), "claims")
	analysistest.Run(t, dir, fairclaim.Analyzer, "./constants", "./schemafile", "./gen", "./app", "./sq", "./gormq", "./entq", "./queries", "./worker", "./goquq", "./xormq", "./rawcas", "./authz")
}

// TestFactsOnly: a package analysed only for its facts (go vet's VetxOnly)
// exports the same facts as one analysed for diagnostics, though the pass
// skips the claims of code that is not generated.
func TestFactsOnly(t *testing.T) {
	dir := filepath.Join(analysistest.TestData(), "claims")
	pkgs := []string{"./constants", "./schemafile", "./gen", "./app", "./sq", "./gormq", "./entq", "./queries", "./worker", "./goquq", "./xormq", "./rawcas", "./authz"}
	full := testpkgs.Facts(analysistest.Run(testpkgs.Quiet{}, dir, fairclaim.Analyzer, pkgs...))
	lazyssa.SetFactsOnly(true)
	only := testpkgs.Facts(analysistest.Run(testpkgs.Quiet{}, dir, fairclaim.Analyzer, pkgs...))
	lazyssa.SetFactsOnly(false)
	if len(full) == 0 {
		t.Fatal("no facts exported at all")
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
