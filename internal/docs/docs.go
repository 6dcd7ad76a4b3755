// Package docs extracts an analyzer's help text from its doc.go, the single
// source for Analyzer.Doc and for `bhlint -explain`.
package docs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// Extract returns the section of doc.go's package comment that starts with
// "# Analyzer NAME", without the heading. It panics if there is none: that is
// a programming error caught by every test of the analyzer.
func Extract(docGo, name string) string {
	doc := packageComment(docGo)
	if doc == nil {
		panic(fmt.Sprintf("doc.go of %s has no package comment", name))
	}
	text := doc.Text()
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

// packageComment is doc.go's package comment. Every analyzer's init runs
// this, in every process go vet starts (one per package, dependencies
// included), so the usual form — one /* */ block right before the package
// clause — is cut out directly; the parser, whose scan of the whole comment
// was about 3% of bhlint's CPU on a service, reads any other form.
func packageComment(docGo string) *ast.CommentGroup {
	if strings.HasPrefix(docGo, "/*") {
		if end := strings.Index(docGo, "*/"); end >= 0 {
			// The package clause on the next line: a blank line between
			// would make the block no doc comment.
			rest := strings.TrimLeft(docGo[end+2:], " \t")
			rest = strings.TrimPrefix(rest, "\r")
			if next, ok := strings.CutPrefix(rest, "\n"); ok && strings.HasPrefix(next, "package ") {
				return &ast.CommentGroup{List: []*ast.Comment{{Text: docGo[:end+2]}}}
			}
		}
	}
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", docGo, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return nil
	}
	return f.Doc
}
