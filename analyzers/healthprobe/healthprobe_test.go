package healthprobe_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/healthprobe"
)

func TestHealthProbe(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), healthprobe.Analyzer, "app", "grpcsvc", "libchecks", "router", "healthiface", "gormstore", "service", "wiring", "wiredmain", "wiredtest", "enginecheck", "srvmain", "fieldprobe", "fieldapp", "fieldroutes", "github.com/stretchr/testify/assert")
}
