package retrystorm_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/bhlint/bhlint/analyzers/retrystorm"
)

func TestRetryStorm(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), retrystorm.Analyzer, "backoffx", "retries", "rediscmd", "readers", "natsconsumer", "dbretries", "searches", "localwait", "retrypolicy", "backoffpolicy", "handlerretry", "rpcretry", "restyretry", "cloudqueues", "brokerretry")
}
