package dbopen

import (
	"database/sql"
	"time"
)

// After cerbos' connPool section: Configure sets the maximum only when the
// section is there; a nil configuration leaves the pool with none, so it
// bounds nothing its callers can count on.
type PoolConf struct{ MaxOpen int }

func (pc *PoolConf) Configure(db *sql.DB) {
	if pc == nil {
		return
	}
	db.SetMaxOpenConns(pc.MaxOpen)
}

// A guard on the pool itself is no condition on the maximum: a nil pool
// has nothing to bound.
func Always(db *sql.DB, n int) { // want Always:"boundsDBParam\\(\\[0\\]\\)"
	if db == nil {
		return
	}
	db.SetMaxOpenConns(n)
}

// After cerbos' ConnectWithRetries: the pool is opened inside the retried
// closure, into a variable of the function, which returns it unbounded.
func OpenWithRetries(dsn string) (*sql.DB, error) { // want OpenWithRetries:"opensUnboundedDB\\(0, sql.Open\\)"
	var db *sql.DB
	connect := func() error {
		var err error
		db, err = sql.Open("pgx", dsn)
		return err
	}
	for range 3 {
		if err := connect(); err == nil {
			return db, nil
		}
		time.Sleep(time.Second)
	}
	return nil, sql.ErrConnDone
}
