package heldconn_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/heldconn"
)

// TestRobustness: cgo files, generic code over lane types, generated files
// (silent by default, reported under -generated), and functions over the
// SSA budget (reported as skipped, not analysed for ever).
func TestRobustness(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), heldconn.Analyzer, "cgocase", "genericlanes", "generated")
	t.Run("generated", func(t *testing.T) {
		setFlag(t, heldconn.Analyzer, "generated", "true")
		analysistest.Run(t, analysistest.TestData(), heldconn.Analyzer, "generatedasked")
	})
	t.Run("budget", func(t *testing.T) {
		setFlag(t, heldconn.Analyzer, "budget", "40")
		analysistest.Run(t, analysistest.TestData(), heldconn.Analyzer, "huge")
	})
}

// setFlag sets one of the analyzer's flags for the rest of the test.
func setFlag(t *testing.T, a *analysis.Analyzer, name, value string) {
	t.Helper()
	f := a.Flags.Lookup(name)
	if f == nil {
		t.Fatalf("%s has no -%s flag", a.Name, name)
	}
	old := f.Value.String()
	if err := a.Flags.Set(name, value); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Flags.Set(name, old) })
}
