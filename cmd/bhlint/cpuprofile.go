package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/suite"
)

// cpuProfileEnv names a directory in which every vet-tool process writes a
// CPU profile of its whole life up to its last pass: parsing, type
// checking and every pass, one file per package (the package path with /
// turned into _, then the pid). The run log (runLogEnv) says which package
// and which pass cost the time; this says where inside them it went
// (docs/ARCHITECTURE.md, "Measuring a run"). Unset, nothing is profiled.
const cpuProfileEnv = "BHLINT_CPU_PROFILE"

// profileUnit starts the CPU profile of the process that analyses unit, and
// wraps the analyzers so that the last pass to finish stops it: the
// unitchecker ends the process with os.Exit, so nothing after it can.
func profileUnit(unit string, analyzers []*analysis.Analyzer) {
	dir := os.Getenv(cpuProfileEnv)
	if dir == "" || unit == "" {
		return
	}
	cfg, err := readUnit(unit)
	if err != nil {
		return // checkUnitConfig has said what is wrong with it
	}
	name := fmt.Sprintf("%s.%d.pprof", strings.ReplaceAll(cfg.ImportPath, "/", "_"), os.Getpid())
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		fmt.Fprintf(os.Stderr, "bhlint: %s: %v\n", cpuProfileEnv, err)
		os.Exit(exitError)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "bhlint: %s: %v\n", cpuProfileEnv, err)
		os.Exit(exitError)
	}
	var mu sync.Mutex
	left := passesRun(analyzers, cfg.VetxOnly)
	suite.ForEach(analyzers, func(a *analysis.Analyzer) {
		run := a.Run
		a.Run = func(pass *analysis.Pass) (any, error) {
			result, err := run(pass)
			mu.Lock()
			defer mu.Unlock()
			if left--; left == 0 {
				pprof.StopCPUProfile()
				f.Close()
			}
			return result, err
		}
	})
}

// readUnit reads go vet's *.cfg file for one package.
func readUnit(path string) (*unitConfig, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	u := new(unitConfig)
	return u, json.Unmarshal(data, u)
}

// passesRun counts the analyzers the unitchecker runs on one package: all
// of them, or, for a package analysed only for its facts, those that export
// facts or require one that does, with what they require.
func passesRun(analyzers []*analysis.Analyzer, factsOnly bool) int {
	usesFacts := map[*analysis.Analyzer]bool{}
	suite.ForEach(analyzers, func(a *analysis.Analyzer) {
		usesFacts[a] = len(a.FactTypes) > 0 || slices.ContainsFunc(a.Requires, func(req *analysis.Analyzer) bool { return usesFacts[req] })
	})
	var roots []*analysis.Analyzer
	for _, a := range analyzers {
		if usesFacts[a] || !factsOnly {
			roots = append(roots, a)
		}
	}
	n := 0
	suite.ForEach(roots, func(*analysis.Analyzer) { n++ })
	return n
}
