package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPackageVettedAsDependencyFirst: bhlint on main, then on a package
// main imports, reports that package's finding. go vet caches a
// dependency's facts-only result under the key its own run uses; without
// the vet tool analysing the module's packages in full, the second run
// replayed that empty result and reported nothing.
func TestPackageVettedAsDependencyFirst(t *testing.T) {
	bin := buildBhlint(t)
	dir := t.TempDir()
	src := filepath.Join("..", "..", "testdata", "e2e", "tenancy")
	nonce := fmt.Sprintf("\n// nonce %d: new to go vet's cache\n", time.Now().UnixNano())
	for _, name := range []string{"go.mod", "main.go", "api/api.go", "jobs/jobs.go"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".go") {
			data = append(data, nonce...)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, stderr, code := run(t, dir, bin, "."); code != 0 || !strings.Contains(stderr, "1 package analysed, 0 findings") {
		t.Fatalf("bhlint . (main, no .bhlint.yml here): exit %d, %s; want exit 0, one package and no finding (its imports are not its findings)", code, stderr)
	}
	for pkg, code := range map[string]string{"./jobs": "ERR_FIFO_CLAIM_ACROSS_TENANTS", "./api": "ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN"} {
		out, stderr, exit := run(t, dir, bin, pkg)
		if exit != 1 || !strings.Contains(out, code) {
			t.Errorf("bhlint %s after bhlint .: exit %d\n%s%s\nwant its %s", pkg, exit, out, stderr, code)
		}
	}
}
