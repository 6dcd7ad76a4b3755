package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The gate never passes what it did not check: a configuration error fails
// every run, cached or not, and every .bhlint.yml that applies to a package
// is in its cache key, under bhlint and under go vet -vettool as the README
// tells users to run it. (golangci-lint: plugin/golangci; the LSP server:
// lsp_config_test.go.)

// goroutinePerItem is an unboundedqueue finding in a package that imports
// nothing, so that a run after a configuration change (a new cache key for
// every package, the standard library's too) stays cheap.
const goroutinePerItem = `package sub

func Notify(hooks []string, send func(string)) {
	for _, h := range hooks {
		go send(h)
	}
}
`

// TestConfigErrorFailsEveryRun: go vet caches a vet tool's output when the
// tool exits 0, and caches a package's facts before it reads the errors in
// that output; a configuration error reported as an analysis error failed
// the first run and passed, silently, from then on. Two runs in a row must
// each fail and name the file and the key, the nested file's too.
func TestConfigErrorFailsEveryRun(t *testing.T) {
	t.Parallel()
	bin := buildBhlint(t)
	for _, tc := range []struct{ name, file string }{
		{"root", ".bhlint.yml"},
		{"nested", filepath.Join("sub", ".bhlint.yml")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "go.mod", "module example.com/cfgerr\n\ngo 1.26\n")
			write(t, dir, filepath.Join("sub", "notify.go"), goroutinePerItem)
			write(t, dir, tc.file, "analyzers:\n  unboundedqueue: true\nbogus: 1\n")
			wantMsg := tc.file + `: line 3: unknown key "bogus"` // go vet shortens the path
			for i := 1; i <= 2; i++ {
				_, stderr, code := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
				if code == 0 || !strings.Contains(stderr, wantMsg) {
					t.Errorf("go vet -vettool, run %d: exit %d, stderr:\n%s\nwant a failure naming %q", i, code, stderr, wantMsg)
				}
				_, stderr, code = run(t, dir, bin, "./...")
				if code != 2 || !strings.Contains(stderr, wantMsg) {
					t.Errorf("bhlint, run %d: exit %d, stderr:\n%s\nwant exit 2 naming %q", i, code, stderr, wantMsg)
				}
			}
		})
	}
}

// TestEveryConfigIsInTheCacheKey: on a warm cache, adding, editing and
// removing a nested .bhlint.yml takes effect at once, under bhlint and under
// go vet -vettool=BIN with nothing else on the command line (the README's
// command).
func TestEveryConfigIsInTheCacheKey(t *testing.T) {
	t.Parallel()
	bin := buildBhlint(t)
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/cfgkey\n\ngo 1.26\n")
	write(t, dir, filepath.Join("sub", "notify.go"), goroutinePerItem)
	nested := filepath.Join(dir, "sub", ".bhlint.yml")
	for _, step := range []struct {
		what     string
		change   func()
		findings int
	}{
		{"no configuration", func() {}, 1},
		{"root config turns unboundedqueue off", func() { write(t, dir, ".bhlint.yml", "analyzers:\n  unboundedqueue: false\n") }, 0},
		{"nested config (nearest wins) turns it on", func() { write(t, dir, filepath.Join("sub", ".bhlint.yml"), "analyzers:\n  unboundedqueue: true\n") }, 1},
		{"nested config edited to off", func() { write(t, dir, filepath.Join("sub", ".bhlint.yml"), "analyzers:\n  unboundedqueue: false\n") }, 0},
		{"nested config edited to on", func() { write(t, dir, filepath.Join("sub", ".bhlint.yml"), "analyzers: {}\n") }, 1},
		{"nested config removed: the root's off again", func() { os.Remove(nested) }, 0},
	} {
		// Each step's runs follow the previous step's on the same cache.
		step.change()
		out, stderr, code := run(t, dir, bin, "./...")
		if n := len(findings(out)); n != step.findings || code != min(step.findings, 1) {
			t.Fatalf("%s: bhlint: exit %d, %d findings, want %d\n%s%s", step.what, code, n, step.findings, out, stderr)
		}
		_, vetErr, vetCode := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
		if n := len(findings(vetErr)); n != step.findings || vetCode != min(step.findings, 1) {
			t.Fatalf("%s: go vet -vettool: exit %d, %d findings, want %d\n%s", step.what, vetCode, n, step.findings, vetErr)
		}
	}
}
