package dispatch

import (
	"github.com/bhlint/bhlint/bulkhead"

	"wiring"
)

type bulkheadExec = bulkhead.Executor[wiring.CardAuth]
