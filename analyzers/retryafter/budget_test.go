package retryafter_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/retryafter"
)

// TestBudget: a function over the SSA budget that the analyzer would check
// is reported as skipped instead of being analysed for ever.
func TestBudget(t *testing.T) {
	f := retryafter.Analyzer.Flags.Lookup("budget")
	old := f.Value.String()
	if err := f.Value.Set("40"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set(old) })
	analysistest.Run(t, analysistest.TestData(), retryafter.Analyzer, "hugehandler")
}
