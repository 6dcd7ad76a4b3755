package main

import (
	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/suite"
)

func analyzers() []*analysis.Analyzer { return suite.Analyzers() }
