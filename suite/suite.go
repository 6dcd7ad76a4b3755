// Package suite lists bhlint's analyzers with their diagnostic codes: the
// set every driver runs (the bhlint binary, go vet -vettool, the
// golangci-lint plugin, the LSP server, a gopls built by
// scripts/gopls/build.sh). It is public so that drivers outside this module
// can run the same analyzers; each one applies .bhlint.yml and
// //bhlint:ignore itself, so a driver needs nothing else.
package suite

import (
	"fmt"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/analyzers/directives"
	"github.com/bhlint/bhlint/analyzers/fairclaim"
	"github.com/bhlint/bhlint/analyzers/healthprobe"
	"github.com/bhlint/bhlint/analyzers/heldconn"
	"github.com/bhlint/bhlint/analyzers/poolbudget"
	"github.com/bhlint/bhlint/analyzers/retryafter"
	"github.com/bhlint/bhlint/analyzers/retrystorm"
	"github.com/bhlint/bhlint/analyzers/sharedpool"
	"github.com/bhlint/bhlint/analyzers/unboundedqueue"
	"github.com/bhlint/bhlint/analyzers/zerofallback"
	"github.com/bhlint/bhlint/internal/ssautil"
)

// Entry is one analyzer and the code that starts its messages (and is the
// Category of its diagnostics).
type Entry struct {
	Analyzer *analysis.Analyzer
	Code     string
}

// All is every analyzer bhlint runs.
var All = []Entry{
	{directives.Analyzer, directives.Code},
	{fairclaim.Analyzer, fairclaim.Code},
	{healthprobe.Analyzer, healthprobe.Code},
	{heldconn.Analyzer, heldconn.Code},
	{poolbudget.Analyzer, poolbudget.Code},
	{retryafter.Analyzer, retryafter.Code},
	{retrystorm.Analyzer, retrystorm.Code},
	{sharedpool.Analyzer, sharedpool.Code},
	{unboundedqueue.Analyzer, unboundedqueue.Code},
	{zerofallback.Analyzer, zerofallback.Code},
}

// Analyzers returns the analyzers of All.
func Analyzers() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(All))
	for i, e := range All {
		out[i] = e.Analyzer
	}
	return out
}

// ForEach calls f once for every analyzer in the graph under analyzers
// (those they require included), each after those it requires.
func ForEach(analyzers []*analysis.Analyzer, f func(*analysis.Analyzer)) {
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		for _, req := range a.Requires {
			visit(req)
		}
		f(a)
	}
	for _, a := range analyzers {
		visit(a)
	}
}

// Lookup finds an analyzer by its name or its diagnostic code.
func Lookup(nameOrCode string) (Entry, bool) {
	for _, e := range All {
		if e.Analyzer.Name == nameOrCode || e.Code == nameOrCode {
			return e, true
		}
	}
	return Entry{}, false
}

// InPackage returns the analyzers of All for a driver that shows a package
// only the findings in its own files (gopls drops the others). A finding
// an analyzer reports in another package's file (sharedpool's main reports
// a shared pool where a dependency opens it) moves to the package clause
// of the package's first file, naming the line to change in its message
// and pointing at it as related information.
func InPackage() []*analysis.Analyzer {
	out := make([]*analysis.Analyzer, len(All))
	for i, e := range All {
		out[i] = inPackage(e.Analyzer)
	}
	return out
}

func inPackage(a *analysis.Analyzer) *analysis.Analyzer {
	cp := *a
	cp.Run = func(pass *analysis.Pass) (any, error) {
		inner := *pass
		inner.Report = func(d analysis.Diagnostic) {
			if len(pass.Files) > 0 && ssautil.FileAt(pass.Files, d.Pos) == nil {
				at := pass.Fset.Position(d.Pos)
				d.Related = append([]analysis.RelatedInformation{{Pos: d.Pos, End: d.End, Message: "the line to change"}}, d.Related...)
				d.Message = fmt.Sprintf("%s (the line to change is %s:%d, in a package this one imports)", d.Message, at.Filename, at.Line)
				d.Pos, d.End = pass.Files[0].Package, pass.Files[0].Name.End()
				d.SuggestedFixes = nil
			}
			pass.Report(d)
		}
		return a.Run(&inner)
	}
	return &cp
}
