package main_test

import (
	"compress/gzip"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCPUProfile runs go vet with the vet tool on a package of the example
// service with BHLINT_CPU_PROFILE set, and checks the directory: one
// profile per package, the named one's among them, each a CPU profile the
// pprof format parses, stopped after the last pass (an unstopped profile
// is an empty file: the process exits before the profiler writes it).
func TestCPUProfile(t *testing.T) {
	bin := saltedCopy(t, buildBhlint(t))
	dir := t.TempDir()
	cmd := exec.Command("go", "vet", "-vettool="+bin, "./internal/checkout")
	cmd.Dir = filepath.Join("..", "..", "examples", "payment-core")
	cmd.Env = append(os.Environ(), "BHLINT_CPU_PROFILE="+dir)
	if out, err := cmd.CombinedOutput(); err != nil && cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("go vet -vettool: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	own := "github.com_bhlint_bhlint_examples_payment-core_internal_checkout."
	found := false
	for _, e := range entries {
		found = found || strings.HasPrefix(e.Name(), own)
		if n, err := gunzippedSize(filepath.Join(dir, e.Name())); err != nil || n == 0 {
			t.Errorf("%s: not a written profile (%d bytes unzipped, %v): was it stopped?", e.Name(), n, err)
		}
	}
	if !found || len(entries) < 2 {
		t.Errorf("profiles written: %d, the checkout package's among them: %v; want one per package, dependencies included", len(entries), found)
	}
}

// gunzippedSize is the size of the gzip file at path once decompressed.
func gunzippedSize(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return 0, err
	}
	return io.Copy(io.Discard, z)
}
