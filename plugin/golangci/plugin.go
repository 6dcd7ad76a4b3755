// Package golangci is bhlint's golangci-lint v2 module plugin.
//
// Build a golangci-lint with it through `golangci-lint custom` and a
// .custom-gcl.yml naming this module, then enable it in .golangci.yml:
//
//	linters:
//	  enable: [bhlint]
//	  settings:
//	    custom:
//	      bhlint:
//	        type: module
//	        settings:
//	          disable: [unboundedqueue]
//
// golangci-lint prints every finding as "analyzer: CODE: message (bhlint)",
// so the analyzer and the diagnostic code stay visible under the one linter.
package golangci

import (
	"fmt"
	"slices"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/config"
	"github.com/bhlint/bhlint/internal/suite"
)

func init() {
	register.Plugin("bhlint", New)
}

// Settings are the plugin's settings in .golangci.yml. Unknown keys are an
// error, naming the key.
type Settings struct {
	// Disable lists analyzers not to run, by name or diagnostic code.
	Disable []string `json:"disable"`
}

// New builds the plugin from golangci-lint's settings.
func New(raw any) (register.LinterPlugin, error) {
	settings, err := register.DecodeSettings[Settings](raw)
	if err != nil {
		return nil, fmt.Errorf("bhlint plugin settings: %w", err)
	}
	for _, name := range settings.Disable {
		if !known(name) {
			return nil, fmt.Errorf("bhlint plugin settings: disable: unknown analyzer or code %q", name)
		}
	}
	// The analyzers read the .bhlint.yml of each package themselves and
	// fail on a bad one; the file golangci-lint runs from is checked here
	// too, for analyzer names, which only the suite knows.
	if cfg, err := config.ForDir("."); err != nil {
		return nil, fmt.Errorf("bhlint: %w", err)
	} else if err := cfg.CheckAnalyzers(suiteNames()); err != nil {
		return nil, fmt.Errorf("bhlint: %w", err)
	}
	return &plugin{settings: settings, configDigest: config.Digest(".")}, nil
}

type plugin struct {
	settings     Settings
	configDigest string // config.Digest of the workspace golangci-lint runs in
}

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	var out []*analysis.Analyzer
	for _, e := range suite.All {
		if slices.Contains(p.settings.Disable, e.Analyzer.Name) || slices.Contains(p.settings.Disable, e.Code) {
			continue
		}
		out = append(out, e.Analyzer)
	}
	return append(out, configKey(p.configDigest)), nil
}

// configKey is an analyzer that does nothing: its name carries the digest
// of every .bhlint.yml of the workspace. golangci-lint keys cached results
// on its own settings and on the names of the analyzers it runs, not on
// files it does not know about, so without it an edited, added or removed
// .bhlint.yml (an analyzer turned back on, a catalogue entry, a bad key)
// would take effect only after golangci-lint cache clean. It reports
// nothing, so its name never shows.
func configKey(digest string) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: "bhlintconfig_" + digest,
		Doc:  "carries the digest of the workspace's .bhlint.yml files into golangci-lint's cache key; reports nothing",
		Run:  func(*analysis.Pass) (any, error) { return nil, nil },
	}
}

func suiteNames() []string {
	var names []string
	for _, e := range suite.All {
		names = append(names, e.Analyzer.Name)
	}
	return names
}

// GetLoadMode asks for type information: the analyzers need types and SSA.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

func known(name string) bool {
	_, ok := suite.Lookup(name)
	return ok
}
