// Package docs extracts an analyzer's help text from its doc.go, the single
// source for Analyzer.Doc and for `bhlint -explain`.
package docs

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"unicode"
)

// Extract returns the section of doc.go's package comment that starts with
// "# Analyzer NAME", without the heading. It panics if there is none: that is
// a programming error caught by every test of the analyzer.
//
// Every analyzer's Doc is extracted when its package is initialised, in
// every process a driver starts (go vet starts one per package), so the
// usual case takes no copy: a block comment already in the form Text gives
// is cut directly.
func Extract(docGo, name string) string {
	if section, ok := directSection(docGo, name); ok {
		return section
	}
	doc := packageComment(docGo)
	if doc == nil {
		panic(fmt.Sprintf("doc.go of %s has no package comment", name))
	}
	section, found := cutSection(doc.Text(), name)
	if !found {
		panic(fmt.Sprintf("doc.go of %s has no %q heading", name, "# Analyzer "+name))
	}
	return strings.TrimSpace(section) + "\n"
}

// cutSection returns what follows the first "# Analyzer NAME" line ending in
// text, up to the next analyzer's heading.
func cutSection(text, name string) (string, bool) {
	heading := "# Analyzer " + name + "\n"
	start := strings.Index(text, heading)
	if start < 0 {
		return "", false
	}
	section := text[start+len(heading):]
	if next := strings.Index(section, "\n# Analyzer "); next >= 0 {
		section = section[:next]
	}
	return section, true
}

// directSection is Extract's section cut from the source itself, when doc.go
// opens with a block comment whose section Text would return unchanged: no
// line ending in white space, no run of blank lines, no carriage return.
func directSection(docGo, name string) (string, bool) {
	end, ok := leadingDocBlock(docGo)
	if !ok {
		return "", false
	}
	section, found := cutSection(docGo[2:end], name)
	if !found {
		return "", false
	}
	section = strings.TrimLeft(section, "\n")
	last := strings.LastIndexFunc(section, func(r rune) bool { return !unicode.IsSpace(r) })
	if last < 0 || last+1 >= len(section) || section[last+1] != '\n' {
		return "", false
	}
	section = section[:last+2] // through the newline after its last word
	if strings.Contains(section, "\n\n\n") || strings.ContainsAny(section, "\r\v\f") ||
		strings.Contains(section, " \n") || strings.Contains(section, "\t\n") || unicode.IsSpace(rune(section[0])) {
		return "", false
	}
	return section, true
}

// leadingDocBlock returns where the block comment that opens docGo ends (the
// index of its "*/") when that block is the package's doc comment: the
// package clause on the next line (a blank line between would make it no
// doc comment).
func leadingDocBlock(docGo string) (int, bool) {
	end := strings.Index(docGo, "*/")
	if !strings.HasPrefix(docGo, "/*") || end < 0 {
		return 0, false
	}
	rest := strings.TrimLeft(docGo[end+2:], " \t")
	rest = strings.TrimPrefix(rest, "\r")
	next, ok := strings.CutPrefix(rest, "\n")
	return end, ok && strings.HasPrefix(next, "package ")
}

// packageComment is doc.go's package comment: the leading block cut out
// directly when it is one, the parser's reading of any other form.
func packageComment(docGo string) *ast.CommentGroup {
	if end, ok := leadingDocBlock(docGo); ok {
		return &ast.CommentGroup{List: []*ast.Comment{{Text: docGo[:end+2]}}}
	}
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", docGo, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return nil
	}
	return f.Doc
}
