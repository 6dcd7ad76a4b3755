package suite

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/config"
	"github.com/bhlint/bhlint/internal/guard"
)

// ConfigKey identifies the .bhlint.yml in effect for a package whose files
// are in dir: its path and a hash of its content, or "" when there is none.
// The analyzers read that file themselves, so a driver that keeps results
// per package across edits and restarts, as gopls does, must put the key in
// its cache key; otherwise an edited .bhlint.yml would not take effect.
func ConfigKey(dir string) string {
	path := config.Find(dir)
	if path == "" {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return path + ": " + err.Error()
	}
	sum := sha256.Sum256(data)
	return path + " " + hex.EncodeToString(sum[:])
}

// ConfigAnalyzer reports a .bhlint.yml that does not load, or that names an
// analyzer bhlint does not have, on the package clause of each package it
// applies to. It is not in All: the bhlint command, go vet and golangci-lint
// fail with that error, but gopls only logs an analyzer's error, so without
// this report a misspelt key would silently turn every check off there.
var ConfigAnalyzer = &analysis.Analyzer{
	Name: "bhlintconfig",
	Doc:  "reports a .bhlint.yml that bhlint cannot use (for drivers, like gopls, that do not show analyzer errors)",
	URL:  "https://github.com/bhlint/bhlint#configuration-bhlintyml",
	Run:  checkConfig,
}

func checkConfig(pass *analysis.Pass) (any, error) {
	if len(pass.Files) == 0 {
		return nil, nil
	}
	report := func(msg string) {
		f := pass.Files[0]
		pass.Report(analysis.Diagnostic{Pos: f.Package, End: f.Name.End(), Category: "config", Message: msg})
	}
	cfg, err := guard.Config(pass)
	if err != nil {
		report(err.Error() + "; bhlint's analyzers are off until it is fixed")
		return nil, nil
	}
	var unknown []string
	for name := range cfg.Analyzers {
		if _, ok := Lookup(name); !ok {
			unknown = append(unknown, fmt.Sprintf("%q", name))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		report(fmt.Sprintf("bhlint configuration: %s: analyzers: unknown analyzer %s (known: %s)", cfg.Path, strings.Join(unknown, ", "), strings.Join(names(), ", ")))
	}
	return nil, nil
}

func names() []string {
	var out []string
	for _, e := range All {
		out = append(out, e.Analyzer.Name)
	}
	return out
}
