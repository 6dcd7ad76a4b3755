package main

import (
	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/analyzers/directives"
	"github.com/bhlint/bhlint/analyzers/heldconn"
)

// suite is every analyzer bhlint runs, with its diagnostic code.
var suite = []struct {
	analyzer *analysis.Analyzer
	code     string
}{
	{directives.Analyzer, directives.Code},
	{heldconn.Analyzer, heldconn.Code},
}

func analyzers() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(suite))
	for i, s := range suite {
		out[i] = s.analyzer
	}
	return out
}
