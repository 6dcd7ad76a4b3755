package catalog

import (
	"go/types"
	"testing"
)

// sqlxMethod makes (*github.com/jmoiron/sqlx.DB).name, as the type checker
// would see it.
func sqlxMethod(name string) *types.Func {
	return method("github.com/jmoiron/sqlx", "sqlx", "DB", name)
}

// sqlx's context-taking waits join database/sql's and pgx's slot waits, so a
// BeginTxx on context.Background() waits with no deadline as BeginTx does.
func TestSqlxSlotWaits(t *testing.T) {
	for _, name := range []string{"BeginTxx", "Connx", "GetContext", "SelectContext", "QueryxContext", "PreparexContext"} {
		if !SlotWaits.Has(sqlxMethod(name)) {
			t.Errorf("SlotWaits lacks (*sqlx.DB).%s", name)
		}
	}
	if SlotWaits.Has(sqlxMethod("Unsafe")) {
		t.Errorf("SlotWaits has (*sqlx.DB).Unsafe, which takes no connection")
	}
	for _, name := range []string{"Preparex", "Connx", "MustBegin", "BeginTxx"} {
		if !PoolAcquires.Has(sqlxMethod(name)) {
			t.Errorf("PoolAcquires lacks (*sqlx.DB).%s", name)
		}
	}
	if !SamePoolHandles.Has(sqlxMethod("Unsafe")) || !PoolPrepares.Has(sqlxMethod("Preparex")) {
		t.Errorf("Unsafe and Preparex are missing from heldconn's tables")
	}
}
