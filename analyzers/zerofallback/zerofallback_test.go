package zerofallback_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/zerofallback"
)

func TestZeroFallback(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), zerofallback.Analyzer,
		"fallbacks", "traps", "verified", "money")
}
