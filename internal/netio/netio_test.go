package netio_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/internal/netio"
)

func TestFacts(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), netio.Analyzer, "httpx", "vendors", "misc", "sdk", "sdkuser", "dispatch", "example.com/idp/...")
}
