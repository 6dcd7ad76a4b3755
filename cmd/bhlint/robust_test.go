package main_test

import (
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBrokenPackages: in a module where one package does not parse and one
// does not type-check, bhlint exits 2, names each broken package with its
// error, and still prints the findings of the packages that build.
func TestBrokenPackages(t *testing.T) {
	bin := buildBhlint(t)
	dir := filepath.Join("..", "..", "testdata", "broken")
	want, err := os.ReadFile(filepath.Join(dir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, dir, bin, "./...")
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if stdout != string(want) {
		t.Errorf("stdout\n%s\nwant (expected.txt)\n%s", stdout, want)
	}
	for _, msg := range []string{
		"# example.com/broken/typeerr\ntypeerr/typeerr.go:6:9: cannot use \"forty-two\" (untyped string constant) as int value",
		// The summary names each package not analysed, with why, and says
		// only what is true of the rest.
		"bhlint: 1 package analysed, 1 finding\n",
		"bhlint: 3 packages not analysed:\n",
		"  example.com/broken/syntaxerr: syntaxerr/syntaxerr.go:5:5: missing condition in if statement",
		"  example.com/broken/typeerr: typeerr/typeerr.go:6:9: cannot use \"forty-two\"",
		"  example.com/broken/usesbroken: imports example.com/broken/typeerr, which does not load\n",
	} {
		if !strings.Contains(stderr, msg) {
			t.Errorf("stderr lacks %q:\n%s", msg, stderr)
		}
	}

	stdout, _, code = run(t, dir, bin, "-format=json", "./...")
	var out jsonRun
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || code != 2 || len(out.Findings) != 1 {
		t.Errorf("-format=json: exit %d, %d findings, %v; want exit 2, valid JSON with ok's one finding:\n%s", code, len(out.Findings), err, stdout)
	}
	var notAnalysed []string
	for _, u := range out.Summary.NotAnalysed {
		notAnalysed = append(notAnalysed, u.Package)
	}
	if out.Summary.Analysed != 1 || strings.Join(notAnalysed, " ") != "example.com/broken/syntaxerr example.com/broken/typeerr example.com/broken/usesbroken" {
		t.Errorf("-format=json summary: %+v; want 1 package analysed and the three that were not, named", out.Summary)
	}
}

// jsonRun is bhlint -format=json's output.
type jsonRun struct {
	Findings []struct{ Code string }
	Summary  struct {
		Analysed    int `json:"packages_analysed"`
		NotAnalysed []struct {
			Package, Reason string
		} `json:"packages_not_analysed"`
		Skipped []struct {
			Analyzer, Message string
		} `json:"functions_skipped"`
		Errors []string `json:"analyzer_errors"`
	}
}

// TestRobustModule: cgo files (findings point at the user's file, not
// dropped as cmd/cgo's generated code), generic types with lane type
// arguments, build tags, generated files (dropped unless -generated), and
// the SSA budget (-budget: functions over it are reported as skipped).
func TestRobustModule(t *testing.T) {
	bin := buildBhlint(t)
	dir := filepath.Join("..", "..", "testdata", "robust")
	for _, tc := range []struct {
		args     []string
		expected string
	}{
		{[]string{"./..."}, "expected.txt"},
		{[]string{"-tags=robusttag", "-generated", "./..."}, "expected-tags-generated.txt"},
	} {
		want, err := os.ReadFile(filepath.Join(dir, tc.expected))
		if err != nil {
			t.Fatal(err)
		}
		stdout, stderr, code := run(t, dir, bin, tc.args...)
		if code != 1 || stdout != string(want) {
			t.Errorf("bhlint %s: exit %d, printed\n%s%s\nwant exit 1 and (%s)\n%s", strings.Join(tc.args, " "), code, stdout, stderr, tc.expected, want)
		}
	}

	// A function over the budget is a notice of its own, in the summary:
	// not a finding, not another analyzer's code, not exit 1.
	stdout, stderr, code := run(t, dir, bin, "-budget=25", "./generics")
	if code != 0 || stdout != "" {
		t.Errorf("bhlint -budget=25: exit %d, findings %q; want exit 0 and no finding (the skips are notices)", code, stdout)
	}
	for _, want := range []string{
		"bhlint: 1 package analysed, 0 findings, 2 functions skipped over the SSA budget (not checked):\n",
		"  generics/generics.go:24:17: skipped: function (*DB[L]).ChargeVia too large (32 instructions > budget 25): heldconn did not check it",
		"  generics/generics.go:39:6: skipped: function With too large (35 instructions > budget 25): heldconn did not check it",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("bhlint -budget=25: stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "function Sum") || strings.Contains(stderr, "ERR_") {
		t.Errorf("bhlint -budget=25 names Sum (no connection, no retry loop) or a diagnostic code in a skip notice:\n%s", stderr)
	}
	stdout, _, _ = run(t, dir, bin, "-budget=25", "-format=json", "./generics")
	var out jsonRun
	if err := json.Unmarshal([]byte(stdout), &out); err != nil || len(out.Findings) != 0 || len(out.Summary.Skipped) != 4 || out.Summary.Skipped[0].Analyzer != "heldconn" || out.Summary.Skipped[1].Analyzer != "retryafter" {
		t.Errorf("-budget=25 -format=json: %v, %+v; want no finding and the two skipped functions in the summary, once per analyzer that skipped them (heldconn, retryafter)", err, out)
	}
}

// TestDeterministicOutput: the same input gives byte-identical output, in
// text and JSON, from a fresh analysis (a copy of the binary with another
// random identity, so go vet's cache cannot replay an earlier run).
func TestDeterministicOutput(t *testing.T) {
	bin := buildBhlint(t)
	other := filepath.Join(t.TempDir(), "bhlint-copy")
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, append(data, []byte(rand.Text())...), 0o755); err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "e2e", "*", "go.mod"))
	dirs = append(dirs, filepath.Join("..", "..", "testdata", "robust", "go.mod"))
	for _, mod := range dirs {
		dir := filepath.Dir(mod)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			for _, format := range []string{"text", "json"} {
				first, _, code1 := run(t, dir, bin, "-format="+format, "./...")
				second, _, code2 := run(t, dir, other, "-format="+format, "./...")
				if first != second || code1 != code2 {
					t.Errorf("-format=%s: two runs differ (exit %d, %d):\n%s\n----\n%s", format, code1, code2, first, second)
				}
			}
		})
	}
}
