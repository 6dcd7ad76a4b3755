package main

import (
	"bytes"
	"go/ast"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/bhlint/bhlint/internal/guard"
)

// TestMain lets this test binary stand in for bhlint under go vet, with one
// more analyzer, boom, that panics in packages named boom: runCLI hands go
// vet its own executable, so the panic goes through the real driver
// (go vet → unitchecker → guard.Wrap) without a test-only trigger in the
// shipped binary.
func TestMain(m *testing.M) {
	if invokedByGoVet(os.Args[1:]) {
		runVetTool(os.Args[1:], boom)
		return
	}
	os.Exit(m.Run())
}

var boom = guard.Wrap(&analysis.Analyzer{
	Name: "boom",
	Doc:  "test-only analyzer: panics (a write to a nil map) in the first function of packages named boom",
	Run: func(pass *analysis.Pass) (any, error) {
		for _, f := range pass.Files {
			for _, decl := range f.Decls {
				if fd, ok := decl.(*ast.FuncDecl); ok && pass.Pkg.Name() == "boom" {
					guard.At(fd.Name.Pos(), func() {
						var calls map[string]int
						//lint:ignore SA5000 the test needs a real runtime panic, as analyzers hit them
						calls[fd.Name.Name]++
					})
				}
			}
		}
		return nil, nil
	},
}, "ERR_BOOM")

// TestAnalyzerPanicThroughTheDriver: one package makes an analyzer panic;
// bhlint exits 2 with an error naming the analyzer, the package and the
// position, and prints every other finding, in that package and the others.
func TestAnalyzerPanicThroughTheDriver(t *testing.T) {
	t.Chdir(filepath.Join("..", "..", "testdata", "robust"))
	var stdout, stderr bytes.Buffer
	code := runCLI([]string{"./..."}, &stdout, &stderr)
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	wantErr := regexp.MustCompile(`example\.com/robust/boom: boom: internal error: analyzer boom panicked in package ` +
		`example\.com/robust/boom at \S+/testdata/robust/boom/boom\.go:12:6: assignment to entry in nil map`)
	if !wantErr.MatchString(stderr.String()) {
		t.Errorf("stderr does not match %s:\n%s", wantErr, stderr.String())
	}
	for _, want := range []string{
		"boom/boom.go:18:15: ERR_CONN_HELD_ACROSS_NETWORK_CALL: ", // same package, other analyzer
		"cgo/cgo.go:26:15: ERR_CONN_HELD_ACROSS_NETWORK_CALL: ",
		"generics/generics.go:30:15: ERR_CONN_HELD_ACROSS_NETWORK_CALL: ",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
		}
	}
}

// TestAnalyzerPanicFailsEveryGoVetRun: under plain go vet, an analyzer's
// failure fails the run every time. (go vet caches a package's facts before
// it reads the error in the tool's output and then replays the package as a
// success; the vet tool fails its process instead, which is never cached.)
func TestAnalyzerPanicFailsEveryGoVetRun(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "testdata", "robust")
	for i := 1; i <= 2; i++ {
		cmd := exec.Command("go", "vet", "-vettool="+self, "./boom")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "internal error: analyzer boom panicked in package example.com/robust/boom") {
			t.Errorf("go vet run %d: %v, want a failure naming the panic:\n%s", i, err, out)
		}
	}
}
