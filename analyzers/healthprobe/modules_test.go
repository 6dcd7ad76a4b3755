package healthprobe_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/healthprobe"
)

// TestModules runs on two modules (testdata/modules, and the API client it
// replaces with ./apiclient): which implementations a package passes on
// depends on the module their interface belongs to.
func TestModules(t *testing.T) {
	analysistest.Run(t, filepath.Join(analysistest.TestData(), "modules"), healthprobe.Analyzer, "./wrap", "./relay", "./health")
}
