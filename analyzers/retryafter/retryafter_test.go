package retryafter_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/retryafter"
)

func TestRetryAfter(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryafter.Analyzer, "shedding", "handlers")
}

// TestSuggestedFix: the fix sets Retry-After before a constant shed and is
// not offered where the status is chosen at run time (fixes.go.golden).
func TestSuggestedFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retryafter.Analyzer, "fixes")
}

// TestModules runs on a module that requires the real grpc, genproto and
// echo modules (testdata/modules/go.mod pins them; they must be in the
// module cache: `cd testdata/modules && go mod download`): gRPC status
// errors, and error values carrying an HTTP status.
func TestModules(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "modules"), retryafter.Analyzer, "./...")
}
