package fairclaim_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/fairclaim"
)

// TestClaims runs on testdata/claims, a module (its stubs of squirrel and
// gorm are replaced by local directories) with migrations in .sql files at
// its root, so that a claim's table definition is found the way it is in a
// user's module.
func TestClaims(t *testing.T) {
	dir := filepath.Join(analysistest.TestData(), "claims")
	analysistest.Run(t, dir, fairclaim.Analyzer, "./constants", "./schemafile", "./gen", "./app", "./sq", "./gormq")
}
