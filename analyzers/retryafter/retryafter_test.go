package retryafter_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/retryafter"
)

func TestRetryAfter(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retryafter.Analyzer, "shedding", "handlers", "errhelper", "errcaller", "limithandler/...", "respvalue", "protoreply", "github.com/go-chi/httprate", "chirender", "fibershed", "featureoff")
}

// TestSuggestedFix: the fix sets Retry-After before a constant shed and is
// not offered where the status is chosen at run time (fixes.go.golden).
func TestSuggestedFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), retryafter.Analyzer, "fixes")
}

// TestModules runs on a module that requires the real grpc, genproto, echo and
// gin modules (testdata/modules/go.mod and go.sum pin them): gRPC status
// errors, error values carrying an HTTP status (a field, a status method),
// echo and gin handlers, echo's rate limiter. analysistest loads it
// with the module proxy turned off, so the modules are downloaded first
// (a no-op when they are in the module cache).
func TestModules(t *testing.T) {
	analysistest.Run(t, modules(t), retryafter.Analyzer, "./...")
}

// modules is the testdata module with the real frameworks, downloaded.
func modules(t *testing.T) string {
	dir := filepath.Join(analysistest.TestData(), "modules")
	download := exec.Command("go", "mod", "download")
	download.Dir = dir
	if out, err := download.CombinedOutput(); err != nil {
		t.Fatalf("go mod download in %s (the test's real framework modules): %v\n%s", dir, err, out)
	}
	return dir
}
