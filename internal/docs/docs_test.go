package docs

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parserSection is Extract as the parser reads doc.go: the package comment's
// Text, cut at the analyzer's heading and the next one.
func parserSection(t *testing.T, src, name string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	_, section, found := strings.Cut(f.Doc.Text(), "# Analyzer "+name+"\n")
	if !found {
		t.Fatalf("no heading in %q", src)
	}
	if next := strings.Index(section, "\n# Analyzer "); next >= 0 {
		section = section[:next]
	}
	return strings.TrimSpace(section) + "\n"
}

// Extract's direct cut gives what the parser gives, and a section Text would
// change (trailing white space, runs of blank lines, carriage returns,
// indented first lines) goes the parser's way instead.
func TestExtractDirectCutMatchesParser(t *testing.T) {
	for _, src := range []string{
		"/*\nPackage x.\n\n# Analyzer x\n\nIt reports.\n\nMore.\n*/\npackage x\n",
		"/*\n# Analyzer x\nIt reports.\n\n# Analyzer y\n\nother\n*/\npackage x\n",
		"/*\n# Analyzer x\n\nIt reports.   \nMore.\n*/\npackage x\n",
		"/*\n# Analyzer x\n\nIt reports.\n\n\n\nMore.\n*/\npackage x\n",
		"/*\r\n# Analyzer x\r\n\r\nIt reports.\r\n*/\r\npackage x\r\n",
		"/*\n# Analyzer x\n\n  indented first\n*/\npackage x\n",
		"/*\n# Analyzer x\n\nIt reports.\t\n\t\n*/\npackage x\n",
		"/*\n# Analyzer x\n\nIt reports.*/\npackage x\n",
		"/*\n# Analyzer x\n\nIt reports.\n \nMore.\n*/\npackage x\n",
		"/*\nsee # Analyzer x\n# Analyzer x\n\nIt reports.\n*/\npackage x\n",
		"/* a header */\n\n/*\n# Analyzer x\n\nIt reports.\n*/\npackage x\n",
	} {
		if got, want := Extract(src, "x"), parserSection(t, src, "x"); got != want {
			t.Errorf("Extract(%q) = %q, want the parser's %q", src, got, want)
		}
	}
}

// The block comment cut out directly reads as the parser reads it, and the
// forms it does not cover (line comments, a comment the package clause does
// not follow) still go through the parser.
func TestExtractMatchesParser(t *testing.T) {
	for _, src := range []string{
		"/*\nPackage x does things.\n\n# Analyzer x\n\nIt reports   \n\n\n  indented\n\n# Analyzer y\n\nother\n*/\npackage x\n",
		"// Package x does things.\n//\n// # Analyzer x\n//\n// It reports.\npackage x\n",
		"/* a header */\n\n/*\nPackage x.\n\n# Analyzer x\n\nIt reports.\n*/\npackage x\n",
		"/*\n# Analyzer x\n\nIt reports.\n*/\n\n\npackage x // trailing\n",
		"/*\n# Analyzer x\n\nIt reports.\n*/ package x\n",
		"/*\n# Analyzer x\n\nIt reports.\n*/\r\npackage x\n",
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "doc.go", src, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		want := f.Doc.Text()
		if got := packageComment(src).Text(); got != want {
			t.Errorf("packageComment(%q).Text() = %q, want the parser's %q", src, got, want)
		}
		if want != "" && Extract(src, "x") == "" {
			t.Errorf("Extract(%q) is empty", src)
		}
	}
	if got, want := Extract("/*\n# Analyzer x\n\nIt   reports.  \n\n# Analyzer y\n\nother\n*/\npackage x\n", "x"), "It   reports.\n"; got != want {
		t.Errorf("Extract = %q, want %q", got, want)
	}
}

func TestExtractPanicsWithoutHeading(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Extract of a doc.go without the analyzer's heading did not panic")
		}
	}()
	Extract("/*\nPackage x.\n*/\npackage x\n", "x")
}

// Every analyzer's doc.go takes the direct cut, and reads as the parser
// reads it.
func TestAnalyzerDocsMatchParser(t *testing.T) {
	files, err := filepath.Glob("../../analyzers/*/doc.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no analyzer doc.go found: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, data, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := packageComment(string(data)).Text(), f.Doc.Text(); got != want {
			t.Errorf("%s: the direct cut reads %d bytes, the parser %d", file, len(got), len(want))
		}
	}
}
