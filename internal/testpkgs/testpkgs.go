// Package testpkgs holds test helpers: loading the GOPATH-style packages of
// a test's testdata/src directory (the layout analysistest uses) with
// go/packages, for tests that need the packages themselves, and reading the
// facts an analysistest run exported.
package testpkgs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"
)

// LineOf is the 1-based line of the first line of testdata/src/file that
// contains text, so that a test naming a position does not break when lines
// are added above it.
func LineOf(t testing.TB, file, text string) int {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "src", file))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, text) {
			return i + 1
		}
	}
	t.Fatalf("%s has no line containing %q", file, text)
	return 0
}

// Load loads the packages matching patterns from ./testdata/src in mode,
// failing the test when any of them does not load.
func Load(t testing.TB, mode packages.LoadMode, patterns ...string) []*packages.Package {
	t.Helper()
	testdata, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: mode,
		Dir:  testdata,
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOPROXY=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("test packages do not load")
	}
	return pkgs
}

// Quiet drops analysistest's expectation errors, for a run whose
// diagnostics are not the point (a facts-only run reports none).
type Quiet struct{}

// Errorf discards the error.
func (Quiet) Errorf(string, ...any) {}

// Facts lists the facts each root package of an analysistest run exported,
// as "object: fact" text, sorted; a pass's error is listed as "error: ...".
func Facts(results []*analysistest.Result) map[string][]string {
	out := map[string][]string{}
	for _, r := range results {
		path := r.Pass.Pkg.Path()
		if r.Err != nil {
			out[path] = append(out[path], "error: "+r.Err.Error())
		}
		for obj, facts := range r.Facts {
			for _, f := range facts {
				name := "package"
				if obj != nil {
					name = obj.String()
				}
				out[path] = append(out[path], fmt.Sprintf("%s: %v", name, f))
			}
		}
		slices.Sort(out[path])
	}
	return out
}

// Related lists the related information of d, a diagnostic of r, as
// "file.go:line message" (the file's base name): what a test compares a
// finding's other ends with.
func Related(r *analysistest.Result, d analysis.Diagnostic) []string {
	var out []string
	for _, rel := range d.Related {
		p := r.Pass.Fset.Position(rel.Pos)
		out = append(out, fmt.Sprintf("%s:%d %s", filepath.Base(p.Filename), p.Line, rel.Message))
	}
	return out
}

// AllRelated is Related of every diagnostic of every result, in order.
func AllRelated(results []*analysistest.Result) []string {
	var out []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			out = append(out, Related(r, d)...)
		}
	}
	return out
}

// WantRelated fails t for each of wants ("file:line message") that no
// diagnostic of results has among its related information.
func WantRelated(t testing.TB, results []*analysistest.Result, wants ...string) {
	t.Helper()
	related := AllRelated(results)
	for _, want := range wants {
		if !slices.Contains(related, want) {
			t.Errorf("related = %q\nwant it to hold %q", related, want)
		}
	}
}

// Elsewhere is an analysistest.Testing that lets a diagnostic one package
// reports at a line of another satisfy that line's // want: sharedpool's
// main package reports a shared pool where a dependency opens it. Run both
// packages as roots; analysistest then says "unexpected diagnostic" for
// the reporting package and "no diagnostic was reported" for the other,
// and each such pair on one line whose pattern matches the message
// cancels. Every other complaint reaches t; call Done after the run.
type Elsewhere struct {
	T          testing.TB
	unexpected []elsewhereMsg // file:line, message
	missing    []elsewhereMsg // file:line, pattern
}

type elsewhereMsg struct{ at, text string }

var (
	unexpectedRx = regexp.MustCompile(`^(.+:\d+):\d+: unexpected diagnostic: (.*)$`)
	missingRx    = regexp.MustCompile("^(.+:\\d+): no diagnostic was reported matching `(.*)`$")
)

func (e *Elsewhere) Errorf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if m := unexpectedRx.FindStringSubmatch(msg); m != nil {
		e.unexpected = append(e.unexpected, elsewhereMsg{m[1], m[2]})
		return
	}
	if m := missingRx.FindStringSubmatch(msg); m != nil {
		e.missing = append(e.missing, elsewhereMsg{m[1], m[2]})
		return
	}
	e.T.Errorf("%s", msg)
}

// Done pairs the complaints and reports what no pair explains.
func (e *Elsewhere) Done() {
	e.T.Helper()
	for _, u := range e.unexpected {
		i := slices.IndexFunc(e.missing, func(m elsewhereMsg) bool {
			return m.at == u.at && regexp.MustCompile(m.text).MatchString(u.text)
		})
		if i < 0 {
			e.T.Errorf("%s: unexpected diagnostic: %s", u.at, u.text)
			continue
		}
		e.missing = slices.Delete(e.missing, i, i+1)
	}
	for _, m := range e.missing {
		e.T.Errorf("%s: no diagnostic was reported matching `%s`", m.at, m.text)
	}
}
