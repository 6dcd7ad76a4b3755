// Command lanes uses the runtime's lane pools and clients.
package main

import (
	"context"
	"os"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanedb"
	"github.com/bhlint/bhlint/bulkhead/lanehttp"
	"github.com/bhlint/bhlint/bulkhead/lanepgx"
	"github.com/bhlint/bhlint/bulkhead/lanepool"

	"budget/lanedefs"
)

type Tax struct{}

func (Tax) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 15} }

type CardAuth struct{}

func (CardAuth) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 75} }

func main() { // want `30 replicas × \(5 taxDB \+ 40 cardDB\) = 1350 connections to database main` `30 replicas × \(8 taxAPI\) = 240 concurrent calls to dependency tax-api, which can take 100; per replica limits must total at most 3` `30 replicas × \(30 fraudExec\) = 900 concurrent calls to dependency fraud-api, which can take 200; per replica limits must total at most 6 \(and reportsExec, whose budget is not a constant, is not counted\)`
	ctx := context.Background()
	taxDB, _ := lanedb.Open[Tax]("pgx", os.Getenv("DATABASE_URL"), lanepool.Config{MaxConns: 5, AcquireTimeout: time.Second})
	cfg := lanepool.Config{AcquireTimeout: time.Second}
	cfg.MaxConns = 40
	cardDB, _ := lanepgx.New[CardAuth](ctx, os.Getenv("DATABASE_URL"), cfg)
	taxAPI, _ := lanehttp.New[Tax](lanehttp.Config{MaxConnsPerHost: 8})
	cardAPI, _ := lanehttp.New[CardAuth](lanehttp.Config{MaxConnsPerHost: 50}) // calls another dependency
	taxExec := bulkhead.MustExecutor[Tax]()                                    // tax's calls out are capped by taxAPI's slots, counted above
	fraudExec, _ := bulkhead.NewExecutor[lanedefs.Fraud]()
	reportsExec, _ := bulkhead.NewExecutor[lanedefs.Reports]()
	_, _, _, _, _, _, _ = taxDB, cardDB, taxAPI, cardAPI, taxExec, fraudExec, reportsExec
}
