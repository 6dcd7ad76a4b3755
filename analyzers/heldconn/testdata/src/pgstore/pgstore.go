// Package pgstore implements ports.UnitOfWork with a transaction.
package pgstore

import (
	"context"
	"database/sql"
)

type UnitOfWork struct{ DB *sql.DB }

func (u *UnitOfWork) Do(ctx context.Context, fn func(ctx context.Context) error) error { // want Do:"holdsDuringCallback\\(\\[2\\]\\)" Do:`queriesPool\(pgstore\.UnitOfWork\.DB\)`
	tx, err := u.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(ctx); err != nil {
		return err
	}
	return tx.Commit()
}
