package directives_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/directives"
)

func TestDirectives(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), directives.Analyzer, "a")
}
