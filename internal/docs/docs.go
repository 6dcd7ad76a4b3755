// Package docs extracts an analyzer's help text from its doc.go, the single
// source for Analyzer.Doc and for `bhlint -explain`.
package docs

import (
	"fmt"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the section of doc.go's package comment that starts with
// "# Analyzer NAME", without the heading. It panics if there is none: that is
// a programming error caught by every test of the analyzer.
func Extract(docGo, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", docGo, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil || f.Doc == nil {
		panic(fmt.Sprintf("doc.go of %s has no package comment: %v", name, err))
	}
	text := f.Doc.Text()
	heading := "# Analyzer " + name + "\n"
	_, section, found := strings.Cut(text, heading)
	if !found {
		panic(fmt.Sprintf("doc.go of %s has no %q heading", name, strings.TrimSpace(heading)))
	}
	if next := strings.Index(section, "\n# Analyzer "); next >= 0 {
		section = section[:next]
	}
	return strings.TrimSpace(section) + "\n"
}
