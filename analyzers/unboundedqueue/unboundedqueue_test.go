package unboundedqueue_test

import (
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
		"example.com/mailer", "example.com/mails", "example.com/historypb", "example.com/integration", "detached",
		"example.com/smtpmail", "example.com/accounts", "webctx",
		"example.com/mailqueue", "example.com/campaigns", "viaiface", "ormpool", "transports",
		"example.com/jwks", "ctxless", "mutexq", "example.com/cacheproxy", "mutexcb", "fixedsets", "fixedsetsmain", "lifetime", "testsupport", "testsupport/testdb", "testsupport/asks", "retried", "schemasetup", "backends/sqlite3", "backends/sqlite", "requestsend", "abandoned", "forwarded", "listeners", "example.com/scans")
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
			want := []string{"fanout.go:565 the loop over each element of hooks starts here", "asyncpost.go:%d the goroutine each call starts"}
			if len(related) != 2 || related[0] != want[0] || !strings.HasPrefix(related[1], "asyncpost.go:") || !strings.HasSuffix(related[1], " the goroutine each call starts") {
				t.Errorf("related = %q\nwant %q", related, want)
			}
			return
		}
	}
	t.Error("no finding for the asyncpost.PostAsync call")
}

// TestOpenRelated: a pool without a maximum reported where it escapes, in
// the caller of an opener of another package, points at the calls that
// open it (every branch of an opener that chooses a driver, and through an
// opener that hands back another's pool): the lines a maximum is set at.
func TestOpenRelated(t *testing.T) {
	want := map[string][]string{
		"dbopen.OpenFor": {"bydriver.go:13 opened here by sql.Open", "bydriver.go:15 opened here by sql.Open"},
		"dbopen.Wrap":    {"dbopen.go:8 opened here by sql.Open"},
	}
	results := analysistest.Run(t, analysistest.TestData(), unboundedqueue.Analyzer, "dbcallers")
	seen := map[string]bool{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for opener, w := range want {
				if strings.Contains(d.Message, "from "+opener+" is") {
					seen[opener] = true
					if got := testpkgs.Related(r, d); !slices.Equal(got, w) {
						t.Errorf("%s: related = %q\nwant %q", opener, got, w)
					}
				}
			}
		}
	}
	if len(seen) != len(want) {
		t.Errorf("reported for %v, want all of %d openers", seen, len(want))
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

// TestRequestNoContextWaits: a handler reaches, through an interface the
// store package fills, a wait with no context in a function handed none;
// the finding sits at the wait, in the store's package.
func TestRequestNoContextWaits(t *testing.T) {
	elsewhere := &testpkgs.Elsewhere{T: t}
	analysistest.Run(elsewhere, analysistest.TestData(), unboundedqueue.Analyzer, "reqwaits/api", "reqwaits/admin", "reqwaits/jobs", "reqwaits/store/sqlstore")
	elsewhere.Done()
}
