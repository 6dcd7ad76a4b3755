// Package lanetx: heldconn knows the runtime's lane-typed transactions and
// connections (bulkhead/lanedb), generic in their lane.
package lanetx

import (
	"context"
	"net/http"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanedb"
)

type Tax struct{}

func (Tax) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 15} }

// QuoteInsideLaneTx holds the tax lane's transaction across the tax API.
func QuoteInsideLaneTx(ctx context.Context, db *lanedb.DB[Tax], url string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := http.Get(url); err != nil {
		return err
	}
	return tx.Commit()
}

// QuoteAfterLaneCommit calls after the lane transaction committed: silent.
func QuoteAfterLaneCommit(ctx context.Context, db *lanedb.DB[Tax], url string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = http.Get(url)
	return err
}
