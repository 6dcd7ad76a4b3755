package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRunLog runs go vet with the vet tool on the example service with
// BHLINT_RUN_LOG set, and checks the log: one well-formed line per pass,
// the example's own packages analysed in full with every bhlint analyzer,
// and its dependencies for their facts only.
func TestRunLog(t *testing.T) {
	bin := saltedCopy(t, buildBhlint(t)) // a new tool identity: go vet's cache cannot answer
	logFile := filepath.Join(t.TempDir(), "run.log")
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./internal/checkout")
	cmd.Dir = filepath.Join("..", "..", "examples", "payment-core")
	cmd.Env = append(os.Environ(), "BHLINT_RUN_LOG="+logFile)
	if out, err := cmd.CombinedOutput(); err != nil && cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("go vet -vettool: %v\n%s", err, out)
	}
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatalf("no run log written: %v", err)
	}
	full := map[string]map[string]bool{} // package analysed in full → analyzers seen
	factsOnly := 0
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			t.Fatalf("run log line has %d fields, want 6: %q", len(f), line)
		}
		for _, n := range []string{f[0], f[3], f[4], f[5]} {
			if _, err := strconv.ParseInt(n, 10, 64); err != nil {
				t.Fatalf("run log line has a non-number where a number belongs: %q", line)
			}
		}
		if f[5] == "0" {
			t.Errorf("peak RSS 0 on Linux: %q", line)
		}
		if f[4] == "1" {
			factsOnly++
			continue
		}
		if full[f[1]] == nil {
			full[f[1]] = map[string]bool{}
		}
		full[f[1]][f[2]] = true
	}
	pkg := "github.com/bhlint/bhlint/examples/payment-core/internal/checkout"
	for _, analyzer := range []string{"sharedpool", "heldconn", "unboundedqueue", "retryafter", "bhlintssa"} {
		if !full[pkg][analyzer] {
			t.Errorf("run log has no full-analysis line for %s on %s; packages in full: %v", analyzer, pkg, keys(full))
		}
	}
	if factsOnly == 0 {
		t.Errorf("run log has no facts-only line: the example's dependencies were not logged")
	}
	for p := range full {
		if p != pkg {
			t.Errorf("package %s analysed in full; go vet analyses only the named package in full", p)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
