// Package txhelper holds transaction helpers that other packages call.
package txhelper

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

type Store struct{ DB *sql.DB }

// InTx begins, runs fn, then commits: fn runs while the transaction is held.
func (s *Store) InTx(ctx context.Context, fn func(*sql.Tx) error) error { // want InTx:"holdsDuringCallback\\(\\[2\\]\\)" InTx:`queriesPool\(txhelper\.Store\.DB\)`
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// RunInPgxTx passes its callback on to pgx.BeginFunc.
func RunInPgxTx(ctx context.Context, pool *pgxpool.Pool, fn func(pgx.Tx) error) error { // want RunInPgxTx:"holdsDuringCallback\\(\\[2\\]\\)"
	return pgx.BeginFunc(ctx, pool, fn)
}

// Finish commits the transaction it is given.
func Finish(tx *sql.Tx) error { // want Finish:"releasesParam\\(\\[0\\]\\)" Finish:`queriesParam\(\[0\]\)` Finish:`endsHanded\(transaction\)`
	return tx.Commit()
}

// AfterCommit calls fn after the transaction is over: not a holder.
func (s *Store) AfterCommit(ctx context.Context, fn func() error) error { // want AfterCommit:`queriesPool\(txhelper\.Store\.DB\)`
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE t SET x = 1"); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return fn()
}
