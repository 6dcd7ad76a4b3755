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

// TestGRPC runs on a module that requires the real grpc and genproto
// modules (testdata/grpcmod/go.mod pins them; they must be in the module
// cache: `cd testdata/grpcmod && go mod download`).
func TestGRPC(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "grpcmod"), retryafter.Analyzer, "./...")
}
