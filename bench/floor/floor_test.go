package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestNoopIsAFactAnalyzer: noop is valid and declares a fact type, which is what keeps it running
// in the dependencies' units (main.go's doc).
func TestNoopIsAFactAnalyzer(t *testing.T) {
	if err := analysis.Validate([]*analysis.Analyzer{noop}); err != nil {
		t.Fatal(err)
	}
	if len(noop.FactTypes) == 0 {
		t.Error("noop declares no fact type: go vet's dependency units would drop it")
	}
}

// TestFloorUnderGoVet builds the floor and runs it as go vet's -vettool on a module whose package
// imports another: it is silent and exits 0, it is started for the dependency's unit as well as
// the package's, and a salted copy (bench/lib.sh's bench_salted_copy) has another -V=full
// identity, which is what gives each timed run a cold analysis cache.
func TestFloorUnderGoVet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the floor and runs go vet")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "floor")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	mod := filepath.Join(dir, "mod")
	writeFile(t, filepath.Join(mod, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	writeFile(t, filepath.Join(mod, "a", "a.go"), "package a\n\nimport \"example.com/m/b\"\n\nfunc A() int { return b.B() }\n")
	writeFile(t, filepath.Join(mod, "b", "b.go"), "package b\n\nfunc B() int { return 1 }\n")
	cmd := exec.Command("go", "vet", "-x", "-vettool="+bin, "./a")
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go vet -vettool=floor: %v\n%s", err, out)
	}
	units := 0
	for line := range strings.Lines(string(out)) {
		if strings.Contains(line, bin+" ") && strings.Contains(line, "vet.cfg") {
			units++
		}
	}
	if units < 2 {
		t.Errorf("the floor ran on %d units, want a and its dependency b at least:\n%s", units, out)
	}
	salted := filepath.Join(dir, "floor-salted")
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, salted, string(data)+"bench-salt-1")
	if err := os.Chmod(salted, 0o755); err != nil {
		t.Fatal(err)
	}
	if id, sid := toolID(t, bin), toolID(t, salted); id == sid {
		t.Errorf("a salted copy has the same identity %q: go vet would reuse cached results", id)
	}
}

// toolID is the tool's -V=full line with the program name cut off.
func toolID(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "-V=full").Output()
	if err != nil {
		t.Fatalf("%s -V=full: %v", bin, err)
	}
	_, id, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	return id
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
