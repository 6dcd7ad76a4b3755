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
	return &plugin{settings: settings}, nil
}

type plugin struct{ settings Settings }

func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	var out []*analysis.Analyzer
	for _, e := range suite.All {
		if slices.Contains(p.settings.Disable, e.Analyzer.Name) || slices.Contains(p.settings.Disable, e.Code) {
			continue
		}
		out = append(out, e.Analyzer)
	}
	return out, nil
}

// GetLoadMode asks for type information: the analyzers need types and SSA.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

func known(name string) bool {
	_, ok := suite.Lookup(name)
	return ok
}
