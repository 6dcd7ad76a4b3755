package unboundedqueue_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/unboundedqueue"
	"github.com/bhlint/bhlint/internal/testpkgs"
)

func TestUnboundedQueue(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), unboundedqueue.Analyzer,
		"fanout", "sqlpool", "dbopen", "dbcallers", "migrate",
		"waits", "slicequeue", "lanes", "parked", "workerpool", "asyncpost", "example.com/wsheartbeat", "example.com/cmdfanout",
		"example.com/mailer", "example.com/mails", "example.com/historypb", "example.com/integration", "detached",
		"example.com/smtpmail", "example.com/accounts", "webctx",
		"example.com/mailqueue", "example.com/campaigns", "viaiface", "ormpool", "transports",
		"example.com/jwks", "example.com/quota", "relayctl", "ctxless", "mutexq", "example.com/cacheproxy", "mutexcb", "fixedsets", "fixedsetsmain", "lifetime", "testsupport", "testsupport/testdb", "testsupport/asks", "retried")
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
