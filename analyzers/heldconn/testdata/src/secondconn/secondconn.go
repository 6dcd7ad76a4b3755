// Package secondconn takes a second connection from the pool a transaction
// already holds one of: statements prepared on the pool and run inside the
// transaction, queries on the pool itself.
package secondconn

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/jmoiron/sqlx"

	"stmtmodels"
	"txhelper"
)

// Queries are statements prepared on the pool at start-up.
type Queries struct {
	GetLists  *sqlx.Stmt
	CountSubs *sql.Stmt
}

type App struct {
	db      *sqlx.DB
	queries *Queries
}

var db *sqlx.DB

// txStore binds its statements to its transaction.
type txStore struct {
	tx     *sql.Tx
	insert *sql.Stmt
}

// ---- positives ----

func stmtFieldInsideTx(ctx context.Context, app *App) error { // want stmtFieldInsideTx:`queriesPool\(secondconn\.App\.db\)`
	tx, err := app.db.BeginTxx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var out []int
	if err := tx.Select(&out, "SELECT 1"); err != nil {
		return err
	}
	return app.queries.GetLists.Select(&out) // want `transaction from \(\*sqlx.DB\).BeginTxx is still held during \(\*sqlx.Stmt\).Select on the statement in secondconn.Queries.GetLists, prepared on the pool and not on the transaction: it takes a second connection`
}

func promotedStmtMethodInsideTx(ctx context.Context, app *App) error { // want promotedStmtMethodInsideTx:`queriesPool\(secondconn\.App\.db\)`
	tx, err := app.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := app.queries.CountSubs.QueryRowContext(ctx).Scan(&n); err != nil { // want `\(\*sql.Stmt\).QueryRowContext on the statement in secondconn.Queries.CountSubs`
		return err
	}
	return tx.Commit()
}

func stmtPassedToHelperInsideTx(ctx context.Context, app *App, subs stmtmodels.Subscribers) error { // want stmtPassedToHelperInsideTx:`queriesPool\(secondconn\.App\.db\)`
	tx, err := app.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := subs.LoadLists(app.queries.GetLists); err != nil { // want `still held during \(stmtmodels.Subscribers\).LoadLists \(→ \(\*sqlx.Stmt\).Select\) on the statement in secondconn.Queries.GetLists`
		return err
	}
	return tx.Commit()
}

// The listmonk export shape: a read-only transaction held by a deferred
// rollback while a statement is prepared on the pool and run.
func preparedOnPoolWhileDeferredRollback(ctx context.Context, app *App, cond string) error { // want preparedOnPoolWhileDeferredRollback:`queriesPool\(secondconn\.App\.db\)`
	if cond != "" {
		tx, err := app.db.Unsafe().BeginTxx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := tx.Select(nil, cond); err != nil {
			return err
		}
	}
	stmt, err := app.db.Preparex("SELECT * FROM subscribers") // want `\(\*sqlx.DB\).Preparex on secondconn.App.db, the pool it came from: a second connection from the same pool`
	if err != nil {
		return err
	}
	var out []int
	return stmt.Select(&out) // want `\(\*sqlx.Stmt\).Select on a statement from \(\*sqlx.DB\).Preparex on secondconn.App.db, prepared on the pool`
}

func globalPoolStmt(ctx context.Context, app *App) error { // want globalPoolStmt:`queriesPool\(db\)`
	stmt, err := db.Preparex("SELECT 1")
	if err != nil {
		return err
	}
	tx, err := app.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := stmt.Get(nil); err != nil { // want `\(\*sqlx.Stmt\).Get on a statement from \(\*sqlx.DB\).Preparex on db, prepared on the pool`
		return err
	}
	return tx.Commit()
}

// Inside a transaction helper's callback the held transaction is not in
// hand, but a pool's statement or a query on a known pool handle still
// takes a connection of its own.
func poolStmtInsideCallback(ctx context.Context, store *txhelper.Store, app *App) error { // want poolStmtInsideCallback:`queriesPool\(txhelper\.Store\.DB\)`
	return store.InTx(ctx, func(tx *sql.Tx) error {
		return app.queries.GetLists.Select(nil) // want `the function passed to \(\*txhelper.Store\).InTx calls \(\*sqlx.Stmt\).Select on the statement in secondconn.Queries.GetLists, prepared on the pool`
	})
}

func poolQueryInsideCallback(ctx context.Context, store *txhelper.Store) error { // want poolQueryInsideCallback:`queriesPool\(txhelper\.Store\.DB\)`
	return store.InTx(ctx, func(tx *sql.Tx) error {
		return db.Select(nil, "SELECT 1") // want `the function passed to \(\*txhelper.Store\).InTx calls \(\*sqlx.DB\).Select on the pool handle db`
	})
}

// ---- traps ----

// Inside the callback, the statement bound to the callback's transaction.
func stmtBoundInsideCallback(ctx context.Context, store *txhelper.Store, app *App) error { // want stmtBoundInsideCallback:`queriesPool\(txhelper\.Store\.DB\)`
	return store.InTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.StmtContext(ctx, app.queries.CountSubs).ExecContext(ctx)
		return err
	})
}

// tx.Stmtx binds the pool's statement to the transaction's connection.
func stmtBoundToTx(ctx context.Context, app *App) error { // want stmtBoundToTx:`queriesPool\(secondconn\.App\.db\)`
	tx, err := app.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Stmtx(app.queries.GetLists).Select(nil); err != nil {
		return err
	}
	return tx.Commit()
}

// A statement prepared on the transaction runs on its connection.
func stmtPreparedOnTx(ctx context.Context, app *App) error { // want stmtPreparedOnTx:`queriesPool\(secondconn\.App\.db\)`
	tx, err := app.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	stmt, err := tx.Preparex("SELECT 1")
	if err != nil {
		return err
	}
	if err := stmt.Select(nil); err != nil {
		return err
	}
	return tx.Commit()
}

// The pool's statement after the commit takes the connection given back.
func stmtAfterCommit(ctx context.Context, app *App) error { // want stmtAfterCommit:`queriesPool\(secondconn\.App\.db\)`
	tx, err := app.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Commit(); err != nil {
		return err
	}
	return app.queries.GetLists.Select(nil)
}

// A statement kept beside a transaction (in a struct that holds one) is
// taken to be prepared on it.
func stmtOfTxStore(ctx context.Context, app *App, s *txStore) error { // want stmtOfTxStore:`queriesPool\(secondconn\.App\.db\)`
	tx, err := app.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := s.insert.ExecContext(ctx); err != nil {
		return err
	}
	return tx.Commit()
}

// A helper that only keeps the statement does not run it.
func stmtKeptByHelper(ctx context.Context, app *App) error { // want stmtKeptByHelper:`queriesPool\(secondconn\.App\.db\)`
	tx, err := app.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	_ = stmtmodels.Describe(app.queries.GetLists)
	return tx.Commit()
}

// A statement passed in as a parameter may come from the transaction: not assumed.
func stmtParameter(ctx context.Context, app *App, stmt *sqlx.Stmt) error { // want stmtParameter:"execsStmtParam\\(\\[2\\]\\)" stmtParameter:`queriesPool\(secondconn\.App\.db\)`
	tx, err := app.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := stmt.Select(nil); err != nil {
		return err
	}
	return tx.Commit()
}

var _ = http.Get

// ---- trap: a statement's Close hands it back ----

// stmtCache closes the statements it prepared after each use, as xorm's
// session does after every verb: Close waits for no connection.
type stmtCache struct {
	stmt *sql.Stmt
}

func (c *stmtCache) release() {
	_ = c.stmt.Close()
}

func closeCachedInTx(ctx context.Context, pool *sql.DB, c *stmtCache) error { // want closeCachedInTx:`queriesParam\(\[1\]\)`
	tx, err := pool.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	c.release()
	return tx.Commit()
}
