package unboundedqueue_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/unboundedqueue"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

func TestUnboundedQueue(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedqueue.Analyzer,
		"fanout", "sqlpool", "dbopen", "dbcallers", "migrate",
		"waits", "slicequeue", "lanes", "example.com/monitor", "parked", "workerpool", "asyncpost", "example.com/wsheartbeat", "example.com/cmdfanout",
		"example.com/mailer", "example.com/mails", "example.com/historypb", "example.com/integration", "detached", "startercall",
		"example.com/smtpmail", "example.com/accounts", "webctx",
		"example.com/mailqueue", "example.com/campaigns", "viaiface", "ormpool", "transports",
		"example.com/jwks", "ctxless", "mutexq", "example.com/cacheproxy", "mutexcb", "fixedsets", "fixedsetsmain", "lifetime", "testsupport", "testsupport/testdb", "testsupport/asks", "testsupport/gocheckhelper", "testsupport/containers", "diprovided", "retried", "schemasetup", "backends/sqlite3", "backends/sqlite", "requestsend", "abandoned", "forwarded", "forwardnomax", "pooledsql", "listeners", "example.com/scans", "example.com/servedapi", "example.com/servedimpl", "example.com/streamjobs", "eventsend", "routedonly", "example.com/schemes/native", "fieldroutes", "example.com/megadriver", "brokerwait", "optsdeadline", "msgdetach")
}

// TestStarterRelated: a loop that calls a function starting a goroutine on
// every call (in another package: the startsGoroutine fact) points at that
// go statement, the other end of the finding, as well as at the loop.
func TestStarterRelated(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), unboundedqueue.Analyzer, "fanout")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.Contains(d.Message, "asyncpost.PostAsync call") {
				continue
			}
			related := testpkgs.Related(r, d)
			want := []string{fmt.Sprintf("fanout.go:%d the loop over each element of hooks starts here", testpkgs.LineOf(t, "fanout/fanout.go", "func postToEachWebhook")+1), "asyncpost.go:%d the goroutine each call starts"}
			if len(related) != 2 || related[0] != want[0] || !strings.HasPrefix(related[1], "asyncpost.go:") || !strings.HasSuffix(related[1], " the goroutine each call starts") {
				t.Errorf("related = %q\nwant %q", related, want)
			}
			return
		}
	}
	t.Error("no finding for the asyncpost.PostAsync call")
}

// TestOpenRelated: a pool without a maximum reported at the open inside
// the program's opener points at the caller that stores it (the other end
// of the finding), once for the two callers of one open, and at each
// branch of an opener that chooses a driver.
func TestOpenRelated(t *testing.T) {
	want := map[string][]string{
		"handed back by poolopen.Open ":    {"poolusers.go:16 stored in a struct here by a caller of poolopen.Open, without SetMaxOpenConns"},
		"handed back by poolopen.OpenFor ": {"poolusers.go:26 stored in a struct here by a caller of poolopen.OpenFor, without SetMaxOpenConns"},
	}
	results := analysistest.Run(testpkgs.Quiet{}, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/poolusers")
	seen := map[string]int{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for opener, w := range want {
				if strings.Contains(d.Message, opener) {
					seen[opener]++
					if got := testpkgs.Related(r, d); !slices.Equal(got, w) {
						t.Errorf("%s: related = %q\nwant %q", opener, got, w)
					}
				}
			}
		}
	}
	if seen["handed back by poolopen.Open "] != 1 || seen["handed back by poolopen.OpenFor "] != 2 {
		t.Errorf("findings per opener = %v, want one for poolopen.Open and two for poolopen.OpenFor", seen)
	}
}

// TestParkedViaIsDeterministic: the call a parksOnSend fact names is the
// same on every run (the fixed point once visited the functions in map
// order, and Enqueue's fact named Forward or Push from run to run, which
// go vet's cache then kept for every importer). Run repeatedly so that a
// map-order dependence shows.
func TestParkedViaIsDeterministic(t *testing.T) {
	for range 8 {
		analysistest.Run(t, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/parkorder")
	}
}

// TestDetachedAtDepth: handlers reach, one and two calls down, a goroutine
// another package starts per call; the finding sits at its go statement,
// once.
func TestDetachedAtDepth(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/quota", "relayctl", "relayctl/relayadmin")
	elsewhere.Done()
}

// TestDetacherPerItem: a handler reaches a function that calls, once per
// item of a batch, a function starting a goroutine per call: the loop
// multiplies the goroutines and bounds nothing; the finding sits at the go
// statement. Traps: a slot taken per item, a loop that returns after its
// first call.
func TestDetacherPerItem(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/batchsvc", "example.com/batchapi")
	elsewhere.Done()
}

// TestGeneratedOpener: ent's generated client Open opens a pool and hands
// it back inside the client; nobody edits generated code, so the finding
// sits at the program's call of it, and at a pool the program opens and
// hands to ent's driver before returning the client; a main that serves
// through another package's wrapper is a server. Traps: a pool bounded
// before ent wraps it, and a one-shot command.
func TestGeneratedOpener(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/entmain", "example.com/entcli")
}

// TestQueueSendAtDepth: handlers reach, two calls down and through an
// interface, a send with no deadline another package makes on a queue
// every request shares; the finding sits at the send, once, and the
// look-alikes stay silent (a send that gives up with the caller's context,
// a signal, an actor's mailbox, a channel for the importers, a queue the
// request made, a background caller).
func TestQueueSendAtDepth(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/queuesend/noticeq", "example.com/queuesend/svc", "example.com/queuesend/wire", "example.com/queuesend/api", "example.com/queuesend/iam")
	elsewhere.Done()
}

// TestPoolReportedAtOpen: a pool the program's own opener hands back with
// no maximum is reported at the open inside it, once for all its callers,
// with the caller's line as related information; a dependency's opener at
// the program's call of it.
func TestPoolReportedAtOpen(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/poolopen", "example.com/poolusers")
	elsewhere.Done()
}

// TestDependencyWaits: a request's path that reaches a dependency's wait
// with no context (a vendored library's, two interfaces down) is reported
// at the program's call into the library; not where no pool has a maximum.
func TestDependencyWaits(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedqueue.Analyzer, "libwaits/db", "libwaits/api", "libwaits/nolimit")
}

// TestHandedWaitsPending: a store that ignores the context it is handed
// waits for a slot only where the program gives the pool a maximum: the
// main package that does reports the store's line; where nothing does,
// the wait stays pending and nobody reports it.
func TestHandedWaitsPending(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "ctxlessstore", "ctxlessmain", "ctxlessnomax", "ctxlessnomaxmain")
	elsewhere.Done()
}

// TestDependencyWaitsPending: a handler package that neither bounds the
// pool nor imports the package that does keeps its wait pending; the
// server that imports both reports it at the handler's line, once.
func TestDependencyWaitsPending(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "libwaits/handler", "libwaits/server")
	elsewhere.Done()
}

// TestRequestNoContextWaits: a handler reaches, through an interface the
// store package fills, a wait with no context in a function handed none;
// the finding sits at the wait, in the store's package.
func TestRequestNoContextWaits(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "reqwaits/api", "reqwaits/admin", "reqwaits/jobs", "reqwaits/store/sqlstore")
	elsewhere.Done()
}

// TestHandedWaitsBehindImportedInterface: a method that implements an
// interface of a package it imports is reached through that interface by
// packages that cannot see it, so a wait that ignores its handed context is
// reported where it is; another method of the type, which no request
// reaches, is not.
func TestHandedWaitsBehindImportedInterface(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/svcrepo/repo")
}

// TestFrameworkServerMain: a main package that serves through a web
// framework's own serve call (fastglue's ListenAndServe) is a server as one
// calling net/http's is: a request of its handlers reaches a store's wait
// with a context from Background(), reported at the wait. A main that
// calls the same wait once and serves nothing (bgreportcli, which builds
// the framework's router but never serves it) reports nothing.
func TestFrameworkServerMain(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "bgreport", "bgreportmain", "bgreportcli")
	elsewhere.Done()
}

// TestDispatchTable: a call of a function looked up by a constant key in a
// package-level map of functions (a database layer's table per backend,
// chosen at run time) runs any function the tables store under that key:
// a goroutine per request that fetches through it waits on the database.
// The same table's key whose functions wait on nothing stays silent.
func TestDispatchTable(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedqueue.Analyzer, "dispatchdb")
}

// TestSelfAssignedCapture: variables a closure captures that are assigned
// from themselves or from each other end the question of whether they
// outlive the request (it recursed until the stack overflowed, which no
// recover catches, on mox's webmail).
func TestSelfAssignedCapture(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedqueue.Analyzer, "selfwalk")
}

// TestServedElsewhere: a request's path calls a method of an interface
// another package declares, and neither sees its implementations (dex's
// server calling storage.Storage); the main package that imports the SQL
// implementation reports its waits with no context, at the waits, with the
// call and the entry point as related information. The in-memory
// implementation, and the wait only the background loop reaches, stay
// silent.
func TestServedElsewhere(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/servedwaits/server", "example.com/servedwaits/sqlstore", "example.com/servedwaits/memstore", "example.com/servedwaits/cmd")
	elsewhere.Done()
}

// TestFanOutOverParam: a goroutine per item of a parameter is decided at
// the calls, in the package that calls it: clusteradmin reports the ones
// it hands a request's list, at clusterinfo's go statements.
func TestFanOutOverParam(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	results := analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/internal/clusterinfo", "example.com/clusteradmin", "example.com/clusterapi")
	elsewhere.Done()
	// The finding names the call that decided it, and the hops that handed
	// the list on.
	want := map[string]string{
		"Topics": fmt.Sprintf(`clusteradmin.go:%d called here with r.URL.Query()["addr"], a list nothing here bounds`, testpkgs.LineOf(t, "example.com/clusteradmin/clusteradmin.go", `s.ci.Topics(r.Context(), r.URL.Query()["addr"])`)),
		"Lookup": fmt.Sprintf(`clusteradmin.go:%d called here with addrs, refresh's parameter, decided by its callers`, testpkgs.LineOf(t, "example.com/clusteradmin/clusteradmin.go", `s.ci.Lookup(ctx, addrs)`)),
	}
	found := map[string]bool{}
	for _, r := range results {
		if r.Pass.Pkg.Path() != "example.com/clusteradmin" {
			continue
		}
		for _, d := range r.Diagnostics {
			related := testpkgs.Related(r, d)
			for name, rel := range want {
				if slices.Contains(related, rel) {
					found[name] = true
				}
			}
		}
	}
	for name, rel := range want {
		if !found[name] {
			t.Errorf("no finding of clusteradmin's has the related position %q (%s)", rel, name)
		}
	}
}

// TestHandedPool: a store that opens no pool waits on the one the program
// hands it; its waits with no context are reported where a request of a
// program that gives that pool a maximum reaches them, at the store's line;
// not where the program's pool has none, nor the wait no request reaches.
func TestHandedPool(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/handedpool/store", "example.com/handedpool/server", "example.com/handedpool/nomaxserver")
	elsewhere.Done()
}

// TestParamHandleWait: a helper's ORM round trip on the handle it is handed
// is decided by each caller's argument: the shared handle is a wait with no
// context at the call a request makes, at any depth; a handle with the
// request's context, a transaction, or a call no request reaches is none.
func TestParamHandleWait(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "example.com/paramwait/records", "example.com/paramwait/server")
	elsewhere.Done()
}
