package retryafter_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/retryafter"
)

func TestRetryAfter(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryafter.Analyzer, "shedding", "handlers")
}
