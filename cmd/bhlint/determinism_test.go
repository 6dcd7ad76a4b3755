package main_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVetToolIsDeterministic runs the vet tool a second and a third time on
// the example service's own packages, from the configurations go vet wrote
// for them, and checks that every run writes the same facts file and prints
// the same findings. A facts file that depends on map order makes the
// findings of every importer change from run to run, and go vet's cache then
// keeps whichever came first (sharedpool once took its dependencies'
// summaries in map order).
func TestVetToolIsDeterministic(t *testing.T) {
	bin := saltedCopy(t, buildBhlint(t))
	dir := filepath.Join("..", "..", "examples", "payment-core")
	_, stderr, code := run(t, dir, "go", "vet", "-work", "-vettool="+bin, "./...")
	m := regexp.MustCompile(`(?m)^WORK=(\S+)$`).FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("go vet -work printed no WORK= line (exit %d):\n%s", code, stderr)
	}
	t.Cleanup(func() { os.RemoveAll(m[1]) })
	if code != 0 && code != 1 {
		t.Fatalf("go vet -vettool: exit %d\n%s", code, stderr)
	}
	cfgs, _ := filepath.Glob(filepath.Join(m[1], "b*", "vet.cfg"))
	checked := 0
	for _, cfg := range cfgs {
		unit := readUnit(t, cfg)
		if !strings.HasPrefix(unit.ImportPath, "github.com/bhlint/bhlint/examples/payment-core") {
			continue
		}
		checked++
		first, firstOut := rerun(t, bin, cfg, unit)
		for range 2 {
			facts, out := rerun(t, bin, cfg, unit)
			if !bytes.Equal(facts, first) {
				t.Errorf("%s: the facts file differs between two runs (%d and %d bytes)", unit.ImportPath, len(first), len(facts))
			}
			if out != firstOut {
				t.Errorf("%s: the output differs between two runs:\n%s\n---\n%s", unit.ImportPath, firstOut, out)
			}
		}
	}
	if checked < 3 {
		t.Fatalf("found %d of the example's packages among go vet's %d configurations; want at least 3", checked, len(cfgs))
	}
}

type vetUnit struct {
	ImportPath string
	VetxOutput string
	VetxOnly   bool
}

func readUnit(t *testing.T, cfg string) vetUnit {
	t.Helper()
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var u vetUnit
	if err := json.Unmarshal(data, &u); err != nil {
		t.Fatalf("%s: %v", cfg, err)
	}
	return u
}

// rerun runs the vet tool on one configuration and returns the facts file
// it wrote and what it printed.
func rerun(t *testing.T, bin, cfg string, unit vetUnit) ([]byte, string) {
	t.Helper()
	out, err := exec.Command(bin, cfg).CombinedOutput()
	if err != nil && !unit.VetxOnly && len(out) == 0 {
		t.Fatalf("%s %s: %v", bin, cfg, err)
	}
	facts, err := os.ReadFile(unit.VetxOutput)
	if err != nil {
		t.Fatalf("%s: no facts file after the run: %v", unit.ImportPath, err)
	}
	return facts, string(out)
}

// saltedCopy is bin with random bytes appended: a new vet-tool identity, so
// go vet's cache has no result for it and runs the tool on every package.
func saltedCopy(t *testing.T, bin string) string {
	t.Helper()
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	salted := bin + "-salted"
	if err := os.WriteFile(salted, fmt.Appendf(data, "salt-%s", rand.Text()), 0o755); err != nil {
		t.Fatal(err)
	}
	return salted
}
