// Package forwardnomax forwards context.Background() to waits for a slot // want package:`pendingWaits\(1\)`
// of pools that no package gives a maximum, as soft-serve's store does
// (Transaction calling TransactionContext(context.Background(), fn) on an
// embedded *sqlx.DB): a database/sql pool without one opens another
// connection instead of queueing the caller, so there is no wait to
// report (what it lacks is its maximum, reported where it is opened). A
// pgxpool has a maximum by default: its forwarded wait is reported.
package forwardnomax

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
)

type DB struct {
	*sql.DB
}

func (d *DB) TransactionContext(ctx context.Context, fn func(*sql.Tx) error) error { // want TransactionContext:"forwardsSlotWait\\(ctx=0, pool=-1" TransactionContext:"waitsOnNetwork"
	tx, err := d.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Trap: no maximum anywhere, so the forwarded Background() queues nothing.
func (d *DB) Transaction(fn func(*sql.Tx) error) error { // want Transaction:"waitsOnNetwork" Transaction:"waitsNoContext"
	return d.TransactionContext(context.Background(), fn)
}

type Store struct {
	db   *DB
	pool *pgxpool.Pool
}

func (s *Store) count(ctx context.Context) error { // want count:"forwardsSlotWait\\(ctx=0, pool=-1" count:"waitsOnNetwork"
	_, err := s.pool.Query(ctx, "SELECT count(*) FROM repos")
	return err
}

func (s *Store) repos(w http.ResponseWriter, r *http.Request) { // want repos:"waitsOnNetwork" repos:"waitsNoContext"
	_ = s.db.Transaction(func(*sql.Tx) error { return nil })
	_ = s.count(context.Background()) // want `wait with no deadline: \(\*forwardnomax.Store\).count waits for a pool slot`
}
