// Package appcore is an application core behind interfaces, in the style of // want package:`implements\(holds \(appcore\.App\)\.RunInTransaction by \(\*appcore\.BaseApp\)\.RunInTransaction, holds \(appcore\.Runner\)\.Run by \(appcore\.TxRunner\)\.Run, holds \(appcore\.Transactor\)\.WithTx by \(\*appcore\.PgTransactor\)\.WithTx\)`
// pocketbase's core.App and of transaction managers that carry the
// transaction in the context: call sites see only the interfaces.
package appcore

import (
	"context"
	"database/sql"
	"net/http"
	"sync"
)

// ---- a dbx-like wrapper: Transactional begins, runs f, commits ----

type DB struct{ sqlDB *sql.DB }

type Tx struct{ tx *sql.Tx }

func (db *DB) Begin() (*Tx, error) { // want Begin:`queriesPool\(appcore\.DB\.sqlDB\)`
	tx, err := db.sqlDB.Begin()
	if err != nil {
		return nil, err
	}
	return &Tx{tx}, nil
}

func (tx *Tx) Commit() error   { return tx.tx.Commit() }   // want Commit:"releasesParam\\(\\[0\\]\\)" Commit:`endsHanded\(transaction\)`
func (tx *Tx) Rollback() error { return tx.tx.Rollback() } // want Rollback:"releasesParam\\(\\[0\\]\\)" Rollback:`endsHanded\(transaction\)`

func (db *DB) Transactional(f func(*Tx) error) (err error) { // want Transactional:"holdsDuringCallback\\(\\[1\\]\\)" Transactional:`queriesPool\(appcore\.DB\.sqlDB\)`
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		} else {
			err = tx.Commit()
		}
	}()
	return f(tx)
}

// ---- App: RunInTransaction runs the callback with an App bound to the tx ----

type App interface {
	RunInTransaction(fn func(txApp App) error) error
	Save(v any) error
}

type BaseApp struct {
	db *DB
}

func (app *BaseApp) Save(v any) error { return nil }

func (app *BaseApp) RunInTransaction(fn func(txApp App) error) error { // want RunInTransaction:"holdsDuringCallback\\(\\[1\\]\\)" RunInTransaction:`queriesPool\(appcore\.DB\.sqlDB\)`
	return app.runInTransaction(app.db, fn)
}

// runInTransaction runs fn inside a closure that Transactional holds the
// transaction for: fn is captured, not passed on.
func (app *BaseApp) runInTransaction(db *DB, fn func(txApp App) error) error { // want runInTransaction:"holdsDuringCallback\\(\\[2\\]\\)" runInTransaction:`queriesPool\(appcore\.DB\.sqlDB\)`
	return db.Transactional(func(tx *Tx) error {
		return fn(&BaseApp{db: db})
	})
}

// ---- Transactor: the transaction travels in the context ----

type Transactor interface {
	WithTx(ctx context.Context, fn func(ctx context.Context) error) error
}

type txKey struct{}

type PgTransactor struct{ DB *sql.DB }

func (t *PgTransactor) WithTx(ctx context.Context, fn func(ctx context.Context) error) error { // want WithTx:"holdsDuringCallback\\(\\[2\\]\\)" WithTx:`queriesPool\(appcore\.PgTransactor\.DB\)`
	tx, err := t.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(context.WithValue(ctx, txKey{}, tx)); err != nil {
		return err
	}
	return tx.Commit()
}

// ---- Runner: implementations disagree; calls through it follow the one that holds ----

type Runner interface {
	Run(ctx context.Context, fn func(ctx context.Context) error) error
}

type TxRunner struct{ DB *sql.DB }

func (r TxRunner) Run(ctx context.Context, fn func(ctx context.Context) error) error { // want Run:"holdsDuringCallback\\(\\[2\\]\\)" Run:`queriesPool\(appcore\.TxRunner\.DB\)`
	tx, err := r.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(ctx); err != nil {
		return err
	}
	return tx.Commit()
}

// DirectRunner runs fn with nothing held (a test double, a read path).
type DirectRunner struct{}

func (DirectRunner) Run(ctx context.Context, fn func(ctx context.Context) error) error {
	return fn(ctx)
}

// ---- Batcher: implementations that all hold nothing ----

type Batcher interface {
	Batch(ctx context.Context, fn func(ctx context.Context) error) error
}

// FakeBatcher runs fn directly (a test double).
type FakeBatcher struct{}

func (FakeBatcher) Batch(ctx context.Context, fn func(ctx context.Context) error) error {
	return fn(ctx)
}

// MemBatcher runs fn under a mutex, with no connection.
type MemBatcher struct{ mu sync.Mutex }

func (m *MemBatcher) Batch(ctx context.Context, fn func(ctx context.Context) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return fn(ctx)
}

// ---- Hooks: an interface with a callback and no implementation in sight ----

type Hooks interface {
	OnSave(fn func() error) error
}

// ---- a call through App in the package of its implementation ----

func importFromURL(app App, url string) error {
	return app.RunInTransaction(func(txApp App) error {
		_, err := http.Get(url) // want `the function passed to \(appcore.App\).RunInTransaction calls http.Get while the transaction it runs in is held \(held through its implementation \(\*appcore.BaseApp\).RunInTransaction`
		return err
	})
}
