package retryafter_test

import (
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
