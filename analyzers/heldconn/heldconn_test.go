package heldconn_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/heldconn"
)

func TestHeldConn(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), heldconn.Analyzer,
		"sqlcase", "pgxcase", "generic", "txhelper", "wrapped", "appcore", "ifacecase", "stmtmodels", "secondconn", "gitutil", "subproc", "pgstore", "portsonly", "ormstore", "ormtx", "example.com/gitsvc", "example.com/repos", "example.com/txstore", "example.com/billing", "rowparse", "rowsreleased")
}
