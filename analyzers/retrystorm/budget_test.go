package retrystorm_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/retrystorm"
)

// TestBudget: a function over the SSA budget that the analyzer would check
// is reported as skipped instead of being analysed for ever.
func TestBudget(t *testing.T) {
	f := retrystorm.Analyzer.Flags.Lookup("budget")
	old := f.Value.String()
	if err := f.Value.Set("40"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Value.Set(old) })
	analysistest.Run(t, analysistest.TestData(), retrystorm.Analyzer, "hugeretry")
}
