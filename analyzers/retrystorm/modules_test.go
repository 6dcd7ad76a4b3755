package retrystorm_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/retrystorm"
)

// TestModules runs on a module that requires the real grpc and go-redis
// (testdata/modules/go.mod and go.sum pin them): gRPC calls through a
// generated client interface and on streams, go-redis commands and
// subscriptions. analysistest loads it with the module proxy turned off, so
// the modules are downloaded first (a no-op when they are in the module
// cache).
func TestModules(t *testing.T) {
	dir := filepath.Join(analysistest.TestData(), "modules")
	download := exec.Command("go", "mod", "download")
	download.Dir = dir
	if out, err := download.CombinedOutput(); err != nil {
		t.Fatalf("go mod download in %s (the test's real gRPC and go-redis modules): %v\n%s", dir, err, out)
	}
	analysistest.Run(t, dir, retrystorm.Analyzer, "./...")
}
