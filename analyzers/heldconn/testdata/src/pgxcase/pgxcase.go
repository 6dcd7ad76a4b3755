// Package pgxcase holds pgx v5 positives and traps.
package pgxcase

import (
	"context"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"txhelper"
	"vendors"
)

type Repo struct {
	pool *pgxpool.Pool
	hc   *http.Client
}

// ---- positives ----

func (r *Repo) quoteInsideTx(ctx context.Context, card string) error { // want quoteInsideTx:`queriesPool\(pgxcase\.Repo\.pool\)`
	tx, err := r.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := vendors.Score(card); err != nil { // want `transaction from \(\*pgxpool.Pool\).Begin is still held during vendors.Score`
		return err
	}
	return tx.Commit(ctx)
}

func (r *Repo) beginFuncCallsOut(ctx context.Context) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		req, _ := http.NewRequestWithContext(ctx, "POST", "https://tax.example", nil)
		_, err := r.hc.Do(req) // want `the function passed to pgx.BeginFunc calls \(\*http.Client\).Do while the transaction it runs in is held`
		return err
	})
}

func (r *Repo) helperThatForwardsToBeginFunc(ctx context.Context) error {
	return txhelper.RunInPgxTx(ctx, r.pool, func(tx pgx.Tx) error {
		_, err := http.Get("https://fraud.example") // want `the function passed to txhelper.RunInPgxTx calls http.Get`
		return err
	})
}

func (r *Repo) acquiredConn(ctx context.Context) error { // want acquiredConn:`queriesPool\(pgxcase\.Repo\.pool\)`
	conn, err := r.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	_, err = http.Get("https://tax.example") // want `connection from \(\*pgxpool.Pool\).Acquire is still held during http.Get`
	return err
}

// ---- traps ----

func (r *Repo) collectedBeforeCall(ctx context.Context) error { // want collectedBeforeCall:`queriesPool\(pgxcase\.Repo\.pool\)`
	rows, err := r.pool.Query(ctx, "SELECT url FROM hooks")
	if err != nil {
		return err
	}
	urls, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, u := range urls {
		http.Get(u)
	}
	return nil
}

func (r *Repo) releasedThenCall(ctx context.Context) error { // want releasedThenCall:`queriesPool\(pgxcase\.Repo\.pool\)`
	conn, err := r.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	_, err = conn.Exec(ctx, "SELECT 1")
	conn.Release()
	if err != nil {
		return err
	}
	_, err = http.Get("https://tax.example")
	return err
}

func (r *Repo) beginFuncOnlyQueries(ctx context.Context) error {
	return pgx.BeginFunc(ctx, r.pool, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "UPDATE t SET x = 1")
		return err
	})
}

func (r *Repo) committedThenCall(ctx context.Context) error { // want committedThenCall:`queriesPool\(pgxcase\.Repo\.pool\)`
	tx, err := r.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	_, err = http.Get("https://tax.example")
	return err
}
