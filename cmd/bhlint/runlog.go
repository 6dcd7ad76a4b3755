package main

import (
	"fmt"
	"os"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/suite"
)

// runLogEnv names a file to which every vet-tool process appends one line
// per pass it runs: which process, package and analyzer, how long the pass
// took, whether the package was analysed only for its facts, and the
// process's peak resident set so far. go vet runs one process per package,
// dependencies included, so a profile of the whole run cannot say which
// package or pass costs the time or the memory; this log can
// (docs/ARCHITECTURE.md, "Measuring a run"). Unset, nothing is wrapped.
const runLogEnv = "BHLINT_RUN_LOG"

// logRuns wraps every analyzer of the graph under analyzers so that each
// pass appends its line to the file runLogEnv names, when it is set.
func logRuns(analyzers []*analysis.Analyzer) {
	path := os.Getenv(runLogEnv)
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bhlint: %s: %v\n", runLogEnv, err)
		os.Exit(exitError)
	}
	log := &runLog{f: f}
	suite.ForEach(analyzers, func(a *analysis.Analyzer) {
		run := a.Run
		a.Run = func(pass *analysis.Pass) (any, error) {
			start := time.Now()
			result, err := run(pass)
			log.write(pass.Pkg.Path(), a.Name, time.Since(start))
			return result, err
		}
	})
}

// runLog is the open log file; passes may run concurrently.
type runLog struct {
	mu sync.Mutex
	f  *os.File
}

// write appends one line: pid, package, analyzer, microseconds, facts-only
// (1 or 0), peak RSS in kilobytes. One write call per line, so lines from
// the processes go vet runs in parallel do not interleave.
func (l *runLog) write(pkg, analyzer string, took time.Duration) {
	factsOnly := 0
	if lazyssa.FactsOnly() {
		factsOnly = 1
	}
	line := fmt.Sprintf("%d\t%s\t%s\t%d\t%d\t%d\n", os.Getpid(), pkg, analyzer, took.Microseconds(), factsOnly, peakRSSKiB())
	l.mu.Lock()
	defer l.mu.Unlock()
	l.f.WriteString(line)
}
