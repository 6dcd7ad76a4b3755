// Package testpkgs loads the GOPATH-style packages of a test's testdata/src
// directory (the layout analysistest uses) with go/packages, for tests that
// need the packages themselves rather than an analysistest run.
package testpkgs

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
)

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
