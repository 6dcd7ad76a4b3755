// want package:`fieldValues\(github.com/bhlint/bhlint/bulkhead.LaneSpec.MaxConcurrent = 30 \| unknown\)`

// Package lanedefs declares lane types main's executors use: their
// MaxConcurrent crosses packages as a fact on Spec.
package lanedefs

import (
	"os"
	"strconv"

	"github.com/bhlint/bhlint/bulkhead"
)

type Fraud struct{}

func (Fraud) Spec() bulkhead.LaneSpec { // want Spec:`laneLimit\(30\)`
	return bulkhead.LaneSpec{Name: "fraud", MaxConcurrent: 30}
}

// Reports takes its limit from the environment: no fact, not counted.
type Reports struct{}

func (Reports) Spec() bulkhead.LaneSpec {
	n, _ := strconv.Atoi(os.Getenv("REPORTS_CONCURRENCY"))
	return bulkhead.LaneSpec{MaxConcurrent: n}
}
