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
// Every finding keeps its diagnostic code at the start of the message and
// names its analyzer at the end, so one golangci-lint linter ("bhlint")
// still shows which rule fired.
package golangci

import (
	"fmt"
	"slices"
	"strings"

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
		out = append(out, named(e.Analyzer))
	}
	return out, nil
}

// GetLoadMode asks for type information: the analyzers need types and SSA.
func (p *plugin) GetLoadMode() string { return register.LoadModeTypesInfo }

func known(name string) bool {
	for _, e := range suite.All {
		if e.Analyzer.Name == name || e.Code == name {
			return true
		}
	}
	return false
}

// named returns a copy of a whose findings end with "[analyzer]", since
// golangci-lint reports every module-plugin finding under the plugin's name.
func named(a *analysis.Analyzer) *analysis.Analyzer {
	wrapped := *a
	run := a.Run
	wrapped.Run = func(pass *analysis.Pass) (any, error) {
		inner := *pass
		inner.Report = func(d analysis.Diagnostic) {
			if !strings.HasSuffix(d.Message, "]") {
				d.Message += " [" + a.Name + "]"
			}
			pass.Report(d)
		}
		return run(&inner)
	}
	return &wrapped
}
