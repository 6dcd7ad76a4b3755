package main

import (
	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/suite"
)

func analyzers() []*analysis.Analyzer { return suite.Analyzers() }

// vetAnalyzers are what the vet tool runs: the suite, and the run record
// the standalone command reads its summary from.
func vetAnalyzers() []*analysis.Analyzer { return append(analyzers(), runRecord) }
