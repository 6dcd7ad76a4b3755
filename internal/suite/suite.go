// Package suite is the module's own name for the public package
// github.com/bhlint/bhlint/suite, which lists the analyzers every driver
// runs; the drivers in this module import it here.
package suite

import (
	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/suite"
)

// Entry is one analyzer and the code that starts its messages.
type Entry = suite.Entry

// All is every analyzer bhlint runs (the same slice as suite.All).
var All = suite.All

// Analyzers returns the analyzers of All.
func Analyzers() []*analysis.Analyzer { return suite.Analyzers() }

// Lookup finds an analyzer by its name or its diagnostic code.
func Lookup(nameOrCode string) (Entry, bool) { return suite.Lookup(nameOrCode) }

// ForEach calls f once for every analyzer in the graph under analyzers,
// each after those it requires.
func ForEach(analyzers []*analysis.Analyzer, f func(*analysis.Analyzer)) { suite.ForEach(analyzers, f) }
