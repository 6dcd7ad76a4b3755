// Package dbretries: retries of calls that reach a database, whose drivers
// reach the network through interfaces no static call shows.
package dbretries

import (
	"context"
	"database/sql"
	"math/rand"
	"time"

	"github.com/jinzhu/gorm"
)

// ---- positives ----

// openWithConstantSleep waits for the database to come up, a constant 5s
// between attempts: every instance reconnects in step.
func openWithConstantSleep(dsn string) (*gorm.DB, error) {
	var db *gorm.DB
	var err error
	for i := 0; ; i++ { // want `ERR_UNBOUNDED_RETRY_DETECTED: this loop retries gorm.Open when it fails waiting a constant 5s between attempts with no backoff or jitter`
		db, err = gorm.Open("sqlite3", dsn)
		if err == nil {
			break
		}
		if i >= 10 {
			return nil, err
		}
		time.Sleep(5 * time.Second)
	}
	return db, nil
}

func ping(ctx context.Context, db *sql.DB) error { return db.PingContext(ctx) }

// pingThroughHelperConstantSleep: the pool is reached through a function of
// the package.
func pingThroughHelperConstantSleep(ctx context.Context, db *sql.DB) error {
	var err error
	for i := 0; i < 5; i++ { // want `this loop retries dbretries.ping \(a database call: → \(\*sql.DB\).PingContext\) when it fails waiting a constant 1s`
		if err = ping(ctx, db); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// ---- traps ----

// conflictRetriedAtOnce: a bounded retry of a transaction that lost a
// serialization conflict, at once: a conflict, not a wait for a server.
func conflictRetriedAtOnce(ctx context.Context, db *sql.DB) error {
	var err error
	for i := 0; i < 3; i++ {
		var tx *sql.Tx
		if tx, err = db.BeginTx(ctx, nil); err == nil {
			return tx.Commit()
		}
	}
	return err
}

// openWithJitteredBackoff: bounded, growing and jittered.
func openWithJitteredBackoff(dsn string) (*gorm.DB, error) {
	delay := time.Second
	var err error
	for i := 0; i < 10; i++ {
		var db *gorm.DB
		if db, err = gorm.Open("sqlite3", dsn); err == nil {
			return db, nil
		}
		time.Sleep(delay + time.Duration(rand.Int63n(int64(delay))))
		delay *= 2
	}
	return nil, err
}

func renameTemp(path string) error { return nil }

// localOperationConstantSleep: a bounded constant pause around a call that
// reaches no database and no network.
func localOperationConstantSleep(path string) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = renameTemp(path); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
