package main

import (
	"bytes"
	"go/ast"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/unitchecker"

	"github.com/bhlint/bhlint/internal/guard"
)

// TestMain lets this test binary stand in for bhlint under go vet, with one
// more analyzer, boom, that panics in packages named boom: runCLI hands go
// vet its own executable, so the panic goes through the real driver
// (go vet → unitchecker → guard.Wrap) without a test-only trigger in the
// shipped binary.
func TestMain(m *testing.M) {
	if invokedByGoVet(os.Args[1:]) {
		unitchecker.Main(append(analyzers(), boom)...)
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
