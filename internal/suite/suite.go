// Package suite lists bhlint's analyzers with their diagnostic codes, for
// every driver: the bhlint binary, the golangci-lint plugin, the LSP server.
package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/analyzers/directives"
	"github.com/bhlint/bhlint/analyzers/heldconn"
)

// Entry is one analyzer and the code that starts its messages.
type Entry struct {
	Analyzer *analysis.Analyzer
	Code     string
}

// All is every analyzer bhlint runs.
var All = []Entry{
	{directives.Analyzer, directives.Code},
	{heldconn.Analyzer, heldconn.Code},
}

// Analyzers returns the analyzers of All.
func Analyzers() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(All))
	for i, e := range All {
		out[i] = e.Analyzer
	}
	return out
}
