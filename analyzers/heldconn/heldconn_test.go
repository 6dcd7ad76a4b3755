package heldconn_test

import (
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/heldconn"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

func TestHeldConn(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), heldconn.Analyzer,
		"sqlcase", "pgxcase", "generic", "txhelper", "wrapped", "appcore", "ifacecase", "stmtmodels", "secondconn", "gitutil", "subproc", "pgstore", "portsonly", "ormstore", "ormtx", "example.com/gitsvc", "example.com/repos", "example.com/txstore", "example.com/billing", "rowparse", "rowsreleased", "example.com/signup", "example.com/routetx", "casbintx", "helperpool", "taskqueue", "taskop", "mongotx", "brokertx", "example.com/stepflow", "wrappedflow")
}

// TestRelatedReachedAt: a transaction held across a call of the module's
// that reaches the network deeper down points at the line in the callee
// that makes the network call, the one to move out of the transaction.
func TestRelatedReachedAt(t *testing.T) {
	wantRelated(t, "example.com/signup", "projects.go:30 the call that reaches (*http.Client).Do")
}

// TestRelatedListedStep: a flow run as a list of steps inside a
// transaction points at the line in the step that reaches the network,
// the one to move out of the transaction, not only at the loop's call.
func TestRelatedListedStep(t *testing.T) {
	wantRelated(t, "example.com/stepflow", "stepflow.go:42 the call that reaches (*http.Client).Get")
}

// TestRelatedHelperQuery: a helper handed the transaction that queries the
// pool instead points at its own call that does (the line to change: hand
// it the transaction), beside the call of the helper.
func TestRelatedHelperQuery(t *testing.T) {
	wantRelated(t, "helperpool", "helperpool.go:19 the call that reaches (*sql.DB).QueryRowContext")
}

// TestRelatedSecondAcquire: a helper handed the transaction that both
// calls the network and looks rows up on the pool points at both lines;
// the finding names the network call, and the lookup is a second change.
func TestRelatedSecondAcquire(t *testing.T) {
	wantRelated(t, "helperpool", "helperpool.go:52 the call that takes a second connection from helperpool.Service.db")
}

// wantRelated fails unless a finding in pkg has want among its related
// positions ("file:line message").
func wantRelated(t *testing.T, pkg, want string) {
	t.Helper()
	results := analysistest.Run(t, analysistest.TestData(), heldconn.Analyzer, pkg)
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if slices.Contains(testpkgs.Related(r, d), want) {
				return
			}
		}
	}
	t.Errorf("no finding points at %s", want)
}

// TestImplementationInBuild: a call through an interface whose
// implementations the calling package does not import, but which are in
// its build (a tools module's transaction runner implemented over a
// MongoDB session, a cache interface implemented over Redis, both wired by
// a storage package the controller imports), resolves to them through
// their package's implements fact.
func TestImplementationInBuild(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), heldconn.Analyzer, "example.com/buildimpl/...")
}

// TestPendingCallbacks: a callback handed through an interface whose
// implementations the calling package neither imports nor builds waits on
// the network; the main package, whose build has an implementation that
// runs it inside a transaction, reports the wait at the callback's line,
// naming the implementation. A callback that waits on nothing, and one
// handed to a method whose implementation holds nothing, stay silent.
func TestPendingCallbacks(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), heldconn.Analyzer, "example.com/pendingcb/server", "example.com/pendingcb/sqlstore", "example.com/pendingcb/cmd")
	elsewhere.Done()
}
