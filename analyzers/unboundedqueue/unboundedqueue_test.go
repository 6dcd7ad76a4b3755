package unboundedqueue_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/unboundedqueue"
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
