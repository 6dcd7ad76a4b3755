package main_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// go vet starts the vet tool once per package, dependencies included, so
// what each process pays before it analyses anything is paid hundreds of
// times per run. A binary that imports the network stack is linked against
// the C library when cgo is on, and each process then runs the dynamic
// loader and libc's start-up, and the network packages' inits: bhlint's
// analyzers name net/http's types and functions by their keys, never by
// importing it.
func TestVetToolLinksNoNetworkStack(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, pkg := range []string{"net", "net/http", "runtime/cgo", "os/user"} {
		if slices.Contains(deps, pkg) {
			t.Errorf("cmd/bhlint depends on %s; find the import with go list -deps -f '{{.ImportPath}} {{.Imports}}' and drop it", pkg)
		}
	}
}
