// Package dbopen opens pools for other packages: its functions carry facts.
package dbopen

import "database/sql"

// Open returns a pool with no maximum; its callers must bound it.
func Open(dsn string) (*sql.DB, error) { // want Open:"opensUnboundedDB\\(0, sql.Open\\)"
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxIdleConns(5)
	return db, nil
}

// OpenBounded bounds the pool itself: no fact.
func OpenBounded(dsn string) (*sql.DB, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(20)
	return db, nil
}

// Wrap returns what Open returned, still unbounded: a fact too.
func Wrap(dsn string) (string, *sql.DB) { // want Wrap:"opensUnboundedDB\\(1, dbopen.Open\\)"
	db, _ := Open(dsn)
	return dsn, db
}

// Limit bounds the pool passed to it.
func Limit(db *sql.DB, n int) { // want Limit:"boundsDBParam\\(\\[0\\]\\)"
	db.SetMaxOpenConns(n)
}
