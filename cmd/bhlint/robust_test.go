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
		"# example.com/broken/syntaxerr\nsyntaxerr/syntaxerr.go:5:5: missing condition in if statement",
		"# example.com/broken/typeerr\ntypeerr/typeerr.go:6:9: cannot use \"forty-two\" (untyped string constant) as int value",
		"packages that import these were not analysed either",
	} {
		if !strings.Contains(stderr, msg) {
			t.Errorf("stderr lacks %q:\n%s", msg, stderr)
		}
	}

	stdout, _, code = run(t, dir, bin, "-format=json", "./...")
	var fs []struct{ Code string }
	if err := json.Unmarshal([]byte(stdout), &fs); err != nil || code != 2 || len(fs) != 1 {
		t.Errorf("-format=json: exit %d, %d findings, %v; want exit 2, valid JSON with ok's one finding:\n%s", code, len(fs), err, stdout)
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

	stdout, stderr, code := run(t, dir, bin, "-budget=25", "./generics")
	for _, want := range []string{
		"generics/generics.go:24:17: ERR_CONN_HELD_ACROSS_NETWORK_CALL: skipped: function (*DB[L]).ChargeVia too large (32 instructions > budget 25)",
		"generics/generics.go:39:6: ERR_CONN_HELD_ACROSS_NETWORK_CALL: skipped: function With too large (35 instructions > budget 25)",
	} {
		if code != 1 || !strings.Contains(stdout, want) {
			t.Errorf("bhlint -budget=25: exit %d, output lacks %q:\n%s%s", code, want, stdout, stderr)
		}
	}
	if strings.Contains(stdout, "function Sum") {
		t.Errorf("bhlint -budget=25 reports Sum, which holds nothing and has no retry loop:\n%s", stdout)
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
