// Package wrapped checks types that embed or wrap a held connection.
package wrapped

import (
	"context"
	"database/sql"
	"net/http"

	"github.com/jmoiron/sqlx"
)

// ---- sqlx's *sqlx.Tx embeds *sql.Tx ----

func sqlxTxAcrossCall(ctx context.Context, db *sqlx.DB) error { // want sqlxTxAcrossCall:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := http.Get("https://tax.example"); err != nil { // want `transaction from \(\*sqlx.DB\).BeginTxx is still held during http.Get`
		return err
	}
	return tx.Commit()
}

func sqlxTxCommittedFirst(ctx context.Context, db *sqlx.DB) error { // want sqlxTxCommittedFirst:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = http.Get("https://tax.example")
	return err
}

// ---- a user wrapper with a named field and its own Done method ----

type unitOfWork struct {
	tx *sql.Tx
}

func begin(ctx context.Context, db *sql.DB) (*unitOfWork, error) { // want begin:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	return &unitOfWork{tx: tx}, nil
}

// done releases the wrapped transaction: learned as a fact.
func (u *unitOfWork) done() error { return u.tx.Commit() } // want done:"releasesParam\\(\\[0\\]\\)" done:`endsHanded\(transaction\)`

func wrapperAcrossCall(ctx context.Context, db *sql.DB) error { // want wrapperAcrossCall:`queriesParam\(\[1\]\)`
	u, err := begin(ctx, db)
	if err != nil {
		return err
	}
	http.Get("https://fraud.example") // want `transaction from wrapped.begin is still held during http.Get`
	return u.done()
}

func wrapperDoneFirst(ctx context.Context, db *sql.DB) error { // want wrapperDoneFirst:`queriesParam\(\[1\]\)`
	u, err := begin(ctx, db)
	if err != nil {
		return err
	}
	if err := u.done(); err != nil {
		return err
	}
	_, err = http.Get("https://fraud.example")
	return err
}

// ---- trap: a pool's handle that keeps a connection on the side ----

// store is the program's handle on its pool; lockConn is a connection it
// pins later, when a method takes the leader's lock (coroot's
// DB.primaryLockConn): making a store acquires nothing, so what is done
// while the value lives holds no connection.
type store struct {
	db       *sql.DB
	lockConn *sql.Conn
}

func newStore(dsn string) (*store, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	return &store{db: db}, nil
}

func startWithStore(dsn string) error {
	s, err := newStore(dsn)
	if err != nil {
		return err
	}
	if _, err := http.Get("https://pricing.example"); err != nil {
		return err
	}
	_ = s
	return nil
}
