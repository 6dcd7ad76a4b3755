package guard_test

import (
	"go/ast"
	"go/token"
	"regexp"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/bhlint/bhlint/internal/guard"
)

// boom reports every function, and panics (a real runtime error: a write
// to a nil map) at the function named explode.
var boom = guard.Wrap(&analysis.Analyzer{
	Name: "boom",
	Doc:  "test analyzer that panics at func explode",
	Run:  reportFuncs("ERR_BOOM", "explode"),
}, "ERR_BOOM")

// calm reports every function and never panics.
var calm = guard.Wrap(&analysis.Analyzer{
	Name: "calm",
	Doc:  "test analyzer that reports every function",
	Run:  reportFuncs("ERR_CALM", ""),
}, "ERR_CALM")

func reportFuncs(code, panicAt string) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok {
					continue
				}
				guard.At(fd.Name.Pos(), func() {
					if fd.Name.Name == panicAt {
						var byName map[string]int
						//lint:ignore SA5000 the test needs a real runtime panic, as analyzers hit them
						byName[fd.Name.Name]++
					}
					pass.Reportf(fd.Name.Pos(), "%s: func %s", code, fd.Name.Name)
				})
			}
		}
		return nil, nil
	}
}

// TestPanicBecomesError: an analyzer's panic is an error naming the
// analyzer, the package and the position; the same analyzer's results on
// other packages, and the other analyzers' results on the same package,
// still come out.
func TestPanicBecomesError(t *testing.T) {
	graph, _ := analyze(t, "testdata/boom", boom, calm)
	got := map[string][]string{} // "analyzer pkg" → messages, or "error: …"
	for _, act := range graph.Roots {
		key := act.Analyzer.Name + " " + act.Package.PkgPath
		if act.Err != nil {
			got[key] = append(got[key], "error: "+act.Err.Error())
		}
		for _, d := range act.Diagnostics {
			got[key] = append(got[key], d.Message)
		}
	}

	wantErr := regexp.MustCompile(`^error: internal error: analyzer boom panicked in package example\.com/boom/explodes ` +
		`at \S+/testdata/boom/explodes/explodes\.go:6:6: assignment to entry in nil map \(please report this with the stack below\)\n` +
		`(?s:.*)guard_test\..*reportFuncs`)
	// What boom reported before it panicked may be kept (the checker keeps
	// it; unitchecker prints only the error): the error is what matters.
	if msgs := got["boom example.com/boom/explodes"]; len(msgs) == 0 || !wantErr.MatchString(msgs[0]) {
		t.Errorf("boom on the package where it panics gave %q;\nwant an error matching %s", msgs, wantErr)
	}
	for key, want := range map[string][]string{
		"boom example.com/boom/calm":     {"ERR_BOOM: func Steady"},
		"calm example.com/boom/calm":     {"ERR_CALM: func Steady"},
		"calm example.com/boom/explodes": {"ERR_CALM: func before", "ERR_CALM: func explode", "ERR_CALM: func after"},
	} {
		if !equal(got[key], want) {
			t.Errorf("%s: got %q, want %q", key, got[key], want)
		}
	}
}

// analyze loads the packages under dir and runs the analyzers on them.
func analyze(t *testing.T, dir string, analyzers ...*analysis.Analyzer) (*checker.Graph, *token.FileSet) {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 || len(pkgs) == 0 {
		t.Fatalf("the test packages in %s do not load", dir)
	}
	graph, err := checker.Analyze(analyzers, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return graph, pkgs[0].Fset
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestNonProductionDirs: findings in packages under the directories Go
// projects keep tests and development tools in (devtools/, test/, e2e/,
// below the module's root) are dropped; tools/ and a name that only
// contains one (contest) are production code. The module's own path,
// example.com/test, is not below its root and does not count.
func TestNonProductionDirs(t *testing.T) {
	graph, _ := analyze(t, "testdata/nonprod", calm)
	got := map[string][]string{}
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act.Package.PkgPath, act.Err)
		}
		for _, d := range act.Diagnostics {
			got[act.Package.PkgPath] = append(got[act.Package.PkgPath], d.Message)
		}
	}
	want := map[string][]string{
		"example.com/test/contest":    {"ERR_CALM: func Serve"},
		"example.com/test/tools/cron": {"ERR_CALM: func Serve"},
	}
	if len(got) != len(want) {
		t.Errorf("findings in %d packages, want %d: %q", len(got), len(want), got)
	}
	for pkg, msgs := range want {
		if !equal(got[pkg], msgs) {
			t.Errorf("%s: got %q, want %q", pkg, got[pkg], msgs)
		}
	}
}

// TestNonProductionDirsNeedAModule: a driver that names no module gives no
// root to measure from (the module's own path, example.com/test, holds
// such a name), so no package is taken for test support by its directory.
func TestNonProductionDirsNeedAModule(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: "testdata/nonprod"}, "./...")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		t.Fatalf("the test packages do not load: %v", err)
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{calm}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	reported := 0
	for _, act := range graph.Roots {
		reported += len(act.Diagnostics)
	}
	if reported != 5 {
		t.Errorf("%d findings without a module, want 5 (one per package)", reported)
	}
}
