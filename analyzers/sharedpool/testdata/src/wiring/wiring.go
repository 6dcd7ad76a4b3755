// Package wiring builds lane-typed pools with the runtime. // want package:`lanes\(`
package wiring

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanedb"
	"github.com/jackc/pgx/v5/pgxpool"
)

type CardAuth struct{}

func (CardAuth) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{} }

type Tax struct{}

func (Tax) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{} }

type Fraud struct{}

func (Fraud) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{} }

var shared *sql.DB

// One *sql.DB wrapped into two lanes.
var CardPool = lanedb.NewDB[CardAuth](shared) // want `one database pool, wiring.shared, is given to lanes card_auth and tax \(lane card_auth by lanedb.NewDB; lane tax by lanedb.NewDB\)`
var TaxPool = lanedb.NewDB[Tax](shared)

// Each lane on its own pool: silent.
var cardOwn, fraudOwn *sql.DB
var CardPool2 = lanedb.NewDB[CardAuth](cardOwn)
var FraudPool = lanedb.NewDB[Fraud](fraudOwn)

var cardExec, _ = bulkhead.NewExecutor[CardAuth]()
var taxExec, _ = bulkhead.NewExecutor[Tax]()

// Serve has no lane; the funcs it hands to executors run in theirs.
func Serve(ctx context.Context) {
	cardExec.Do(ctx, func(ctx context.Context) error {
		return TaxPool.QueryRowContext(ctx, "SELECT 1").Err() // want `lane card_auth reaches wiring.TaxPool, the pool of lane tax, by the func literal passed to \(\*bulkhead.Executor\[L\]\).Do in Serve → wiring.TaxPool`
	})
	taxExec.Do(ctx, func(ctx context.Context) error {
		return TaxPool.QueryRowContext(ctx, "SELECT 1").Err() // its own lane: silent
	})
	bulkhead.Call(ctx, taxExec, quote)
	bulkhead.Call(ctx, cardExec, authorize)
}

func quote(ctx context.Context) (int, error) {
	return 0, TaxPool.QueryRowContext(ctx, "SELECT 1").Err()
}

func authorize(ctx context.Context) (int, error) {
	return 0, chargeRow(ctx, TaxPool) // want `lane card_auth reaches wiring.TaxPool, the pool of lane tax, by authorize → wiring.TaxPool`
}

// chargeRow gets a lane-typed pool as a parameter: its type says its lane.
func chargeRow(ctx context.Context, db *lanedb.DB[Tax]) error {
	return db.QueryRowContext(ctx, "SELECT 1").Err()
}

// Open wraps one pool made here into two lanes.
func Open(ctx context.Context) {
	pool, _ := sql.Open("pgx", "dsn")
	card := lanedb.NewDB[CardAuth](pool) // want `one database pool, the database pool from sql.Open at wiring.go:\d+:\d+, is given to lanes card_auth and tax`
	tax := lanedb.NewDB[Tax](pool)
	_, _ = card, tax
	pgx, _ := pgxpool.New(ctx, "dsn")
	_ = pgx
}

// OpenEach opens one pool per lane: silent.
func OpenEach() {
	a, _ := sql.Open("pgx", "card")
	b, _ := sql.Open("pgx", "tax")
	_, _ = lanedb.NewDB[CardAuth](a), lanedb.NewDB[Tax](b)
}

// A handler wrapped by an executor runs in its lane.
func Routes() http.Handler {
	return cardExec.Handler(http.HandlerFunc(taxReport))
}

func taxReport(w http.ResponseWriter, r *http.Request) {
	TaxPool.QueryRowContext(r.Context(), "SELECT 1") // want `lane card_auth reaches wiring.TaxPool, the pool of lane tax, by taxReport → wiring.TaxPool`
}

// The tax lane hands card work to the card lane's executor: that work runs
// in card_auth, so the tax entry point does not reach the card pool.
//
//bhlint:lane tax
func QuoteThenAuthorize(ctx context.Context) error {
	return cardExec.Do(ctx, func(ctx context.Context) error {
		return CardPool.QueryRowContext(ctx, "SELECT 1").Err()
	})
}

// A goroutine started by a lane is still that lane's work.
//
//bhlint:lane tax
func quoteAsync(ctx context.Context) {
	go authorizeRow(ctx) // want `lane tax reaches wiring.CardPool, the pool of lane card_auth, by quoteAsync → wiring.authorizeRow → wiring.CardPool`
}

func authorizeRow(ctx context.Context) { CardPool.QueryRowContext(ctx, "SELECT 1") }

// Directives alone: one *sql.DB assigned to two laned variables.
var mainDB *sql.DB

//bhlint:lane card_auth
var CardSQL = mainDB // want CardSQL:`lane\(card_auth\)` `one database pool, wiring.mainDB, is given to lanes card_auth and tax \(lane card_auth by wiring.CardSQL; lane tax by wiring.TaxSQL\)`

//bhlint:lane tax
var TaxSQL = mainDB // want TaxSQL:`lane\(tax\)`

// Deps gives each lane a field; NewDeps fills both with one pool.
type Deps struct {
	Card *sql.DB /* want Card:`lane\(card_auth\)` */ //bhlint:lane card_auth
	Tax  *sql.DB /* want Tax:`lane\(tax\)` */        //bhlint:lane tax
}

func NewDeps(db *sql.DB) *Deps {
	return &Deps{Card: db, Tax: db} // want `one database pool, the database pool passed to NewDeps as db, is given to lanes card_auth and tax`
}

// NewDepsEach takes one pool per lane: silent.
func NewDepsEach(card, tax *sql.DB) *Deps { return &Deps{Card: card, Tax: tax} }

// InLane is a user's wrapper of Executor.Do: what it is given runs in the
// executor's lane.
func InLane[L bulkhead.Lane](ctx context.Context, e *bulkhead.Executor[L], fn func(context.Context) error) error { // want InLane:`runsInLane\(2\)`
	return e.Do(ctx, fn)
}

// The tax lane dispatches card work through the wrapper: silent.
//
//bhlint:lane tax
func taxDispatch(ctx context.Context) error {
	return InLane(ctx, cardExec, func(ctx context.Context) error {
		return CardPool.QueryRowContext(ctx, "SELECT 1").Err()
	})
}

func viaWrapper(ctx context.Context) error {
	return InLane(ctx, cardExec, func(ctx context.Context) error {
		return TaxPool.QueryRowContext(ctx, "SELECT 1").Err() // want `lane card_auth reaches wiring.TaxPool, the pool of lane tax, by the func literal passed to wiring.InLane in viaWrapper → wiring.TaxPool`
	})
}
