package directives

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/directive"
	"github.com/bhlint/bhlint/internal/docs"
	"github.com/bhlint/bhlint/internal/guard"
)

// Code starts every message of this analyzer.
const Code = "ERR_MALFORMED_DIRECTIVE"

//go:embed doc.go
var doc string

// Analyzer reports malformed //bhlint: directives.
var Analyzer = guard.Wrap(&analysis.Analyzer{
	Name: "directives",
	Doc:  docs.Extract(doc, "directives"),
	URL:  "https://github.com/bhlint/bhlint/tree/main/analyzers/directives",
	Run:  run,
}, Code)

func init() {
	// bhlint passes the hash of the .bhlint.yml in effect, so that go vet's
	// result cache, which is keyed on the tool and its flags, notices when
	// the configuration changes. The value is not otherwise used.
	Analyzer.Flags.String("config", "", "hash of the bhlint configuration in effect (set by bhlint; part of go vet's cache key)")
}

func run(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		for _, group := range f.Comments {
			for _, c := range group.List {
				if !strings.HasPrefix(c.Text, "//bhlint:") {
					continue // most comments are not directives
				}
				d, _, err := directive.Parse(c)
				if err != nil {
					pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Message: Code + ": " + err.Error()})
					continue
				}
				if d.Verb == directive.Ignore && !slices.Contains(directive.KnownCodes, d.Args[0]) {
					pass.Report(analysis.Diagnostic{Pos: c.Pos(), End: c.End(), Message: fmt.Sprintf(
						"%s: //bhlint:ignore names %s, which no bhlint analyzer reports (known: %s)",
						Code, d.Args[0], strings.Join(directive.KnownCodes, ", "))})
				}
			}
		}
	}
	return nil, nil
}
