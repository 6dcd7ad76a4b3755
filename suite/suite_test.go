package suite_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/internal/testpkgs"
	"github.com/bhlint/bhlint/suite"
)

// TestConfigKey: the key follows the nearest .bhlint.yml — none, one above,
// an edit of it, a nearer one — so a driver's cache keyed on it never
// serves results computed under another configuration.
func TestConfigKey(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keys := map[string]string{}
	step := func(name string) {
		k := suite.ConfigKey(pkg)
		for prev, pk := range keys {
			if pk == k {
				t.Errorf("%s: key %q is the same as after %s", name, k, prev)
			}
		}
		keys[name] = k
	}
	step("no file")
	write(filepath.Join(root, ".bhlint.yml"), "analyzers:\n  heldconn: false\n")
	step("a file above")
	write(filepath.Join(root, ".bhlint.yml"), "analyzers:\n  heldconn: true\n")
	step("the file edited")
	write(filepath.Join(pkg, ".bhlint.yml"), "analyzers:\n  heldconn: true\n")
	step("a nearer file with the same content")
	if again := suite.ConfigKey(pkg); again != keys["a nearer file with the same content"] {
		t.Errorf("the key changed with nothing edited: %q, then %q", keys["a nearer file with the same content"], again)
	}
}

// TestConfigAnalyzer: a .bhlint.yml with an unknown key or an unknown
// analyzer is reported on the package clause; a good one is silent.
func TestConfigAnalyzer(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), suite.ConfigAnalyzer, "badkey", "unknownanalyzer", "goodconfig")
}

// TestInPackage: sharedpool's main package reports the shared pool at the
// line of the provider package that opens it; for a driver that shows a
// package only its own files' findings, the finding moves to main's
// package clause and names that line. The ignored pool stays ignored.
func TestInPackage(t *testing.T) {
	var wrapped *analysis.Analyzer
	for _, a := range suite.InPackage() {
		if a.Name == "sharedpool" {
			wrapped = a
		}
	}
	dir, err := filepath.Abs("../analyzers/sharedpool/testdata")
	if err != nil {
		t.Fatal(err)
	}
	results := analysistest.Run(testpkgs.Quiet{}, dir, wrapped, "inferelsewhere")
	var got []string
	for _, r := range results {
		for _, d := range r.Diagnostics {
			at := r.Pass.Fset.Position(d.Pos)
			got = append(got, fmt.Sprintf("%s:%d:%d %s", filepath.Base(at.Filename), at.Line, at.Column, d.Message))
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "main.go:5:1 ERR_SHARED_FAILURE_DOMAIN_DETECTED: provider.pgStore.db,") ||
		!strings.HasSuffix(got[0], "(the line to change is "+filepath.Join(dir, "src/inferelsewhere/provider/provider.go")+":33, in a package this one imports)") {
		t.Errorf("findings = %q, want one at main's package clause naming provider.go:33", got)
	}
}
