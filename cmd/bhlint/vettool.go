package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/bhlint/bhlint/internal/config"
	"github.com/bhlint/bhlint/internal/lazyssa"
	"github.com/bhlint/bhlint/internal/suite"
)

// runVetTool serves the unitchecker protocol for go vet and go fix: -V=full
// (the tool's identity, which go vet keys cached results on), -flags, and
// one *.cfg file per package. extra are analyzers to run besides bhlint's
// (tests add one).
func runVetTool(args []string, extra ...*analysis.Analyzer) {
	if slices.Contains(args, "-V=full") {
		if err := printToolID(os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "bhlint -V=full:", err)
			os.Exit(exitError)
		}
		os.Exit(exitClean)
	}
	unit := unitFile(args)
	if unit != "" {
		if slices.ContainsFunc(args, isRecordFlag) {
			if full := analyseInFull(unit); full != "" {
				args[len(args)-1], os.Args[len(os.Args)-1], unit = full, full, full
			}
		}
		tuneVetTool(args)
		if err := checkUnitConfig(unit); err != nil {
			// A failing exit, never a result: go vet caches what a tool
			// that exits 0 prints (and caches a package's facts before it
			// reads the errors in them), so an error reported any other way
			// would show once and then pass silently from the cache.
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	all := append(vetAnalyzers(), extra...)
	failOnError(all)
	logRuns(all)
	profileUnit(unit, all)
	unitchecker.Main(all...)
}

// isRecordFlag reports whether a vet-tool argument is the flag the bhlint
// command sets (-bhlintrun.record): the run is the command's, which reads
// the JSON and filters it.
func isRecordFlag(arg string) bool {
	return arg == "-"+runRecord.Name+".record" || arg == "-"+runRecord.Name+".record=true"
}

// failOnError makes an analysis error fail the vet tool's process when go
// vet itself prints the results (the bhlint command, which sets
// -bhlintrun.record, reads errors from the JSON and says which packages
// they cost). go vet caches a package's facts before it reads the error in
// the tool's output, and replays the package as a success from then on: an
// analyzer's failure would show once and then pass silently. A failing
// exit is never cached. Packages analysed only for their facts (a
// dependency, whose results go vet discards) keep unitchecker's behaviour.
func failOnError(analyzers []*analysis.Analyzer) {
	suite.ForEach(analyzers, func(a *analysis.Analyzer) {
		run := a.Run
		a.Run = func(pass *analysis.Pass) (any, error) {
			result, err := run(pass)
			if err != nil && !*recordFlag && !lazyssa.FactsOnly() {
				fmt.Fprintf(os.Stderr, "bhlint: %s: %s: %v\n", pass.Pkg.Path(), a.Name, err)
				os.Exit(1)
			}
			return result, err
		}
	})
}

// printToolID prints the identity go vet asks for with -V=full, in the
// format of unitchecker's: "NAME version devel … buildID=ID". The ID hashes
// the executable, as unitchecker's does, and every .bhlint.yml of the
// workspace go vet runs in (config.Digest), so that any configuration
// change, nested files included, is a new key for every package, however
// the user invoked go vet.
func printToolID(w io.Writer) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	f, err := os.Open(exe)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s version devel bhlint buildID=%x%s\n", exe, h.Sum(nil), config.Digest(wd))
	return err
}

// unitFile is the *.cfg argument go vet passes for one package, or "".
func unitFile(args []string) string {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return ""
	}
	return args[len(args)-1]
}

// unitConfig is the part of go vet's *.cfg file that bhlint reads itself.
type unitConfig struct {
	ImportPath    string
	Dir           string
	GoFiles       []string
	ModuleVersion string
	VetxOnly      bool
}

// checkUnitConfig loads the .bhlint.yml that applies to the package and
// checks it, as the analyzers would (they read it themselves, under every
// driver). Packages of a versioned module, a dependency in the module
// cache, are not checked: a file there is not the user's to fix, and the
// analyzers only compute facts from it.
func checkUnitConfig(unit string) error {
	u, err := readUnit(unit)
	if err != nil || u.ModuleVersion != "" {
		return nil // unitchecker reports a file it cannot read
	}
	dir := u.Dir
	if dir == "" && len(u.GoFiles) > 0 {
		dir = filepath.Dir(u.GoFiles[0])
	}
	if dir == "" {
		return nil
	}
	cfg, err := config.ForDir(dir)
	if err == nil {
		err = cfg.CheckAnalyzers(analyzerNames())
	}
	if err != nil {
		return fmt.Errorf("bhlint: %s: %v", u.ImportPath, err)
	}
	return nil
}
