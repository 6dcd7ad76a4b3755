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

// Handle carries a pool for its callers (statping's database.Wrap).
type Handle struct{ db *sql.DB }

// DB is the pool inside.
func (h *Handle) DB() *sql.DB { return h.db }

func wrap(db *sql.DB) *Handle { return &Handle{db: db} }

var current *Handle

// OpenHandle returns the pool wrapped, and keeps the handle too: the caller
// gets it back before anything can use it, so the caller bounds it
// (statping's Openw: database = Wrap(gormdb); return database).
func OpenHandle(dsn string) (*Handle, error) { // want OpenHandle:"opensUnboundedDB\\(0, sql.Open\\)"
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	current = wrap(db)
	return current, nil
}

func migrate(db *sql.DB) error { // want migrate:"waitsOnNetwork"
	_, err := db.Exec("CREATE TABLE IF NOT EXISTS t (id int)")
	return err
}

// OpenMigrated runs the migrations on the pool, one statement after
// another, and returns it: still the caller's to bound (authn-server's
// TestDB: db := NewDB(url); MigrateDB(db); return db).
func OpenMigrated(dsn string) (*sql.DB, error) { // want OpenMigrated:"opensUnboundedDB\\(0, dbopen.Open\\)" OpenMigrated:"waitsOnNetwork"
	db, err := Open(dsn)
	if err != nil {
		return nil, err
	}
	if err := migrate(db); err != nil {
		return nil, err
	}
	return db, nil
}

// openServing migrates the pool, then hands it to a goroutine before
// returning it: shared before the caller could bound it.
func openServing(dsn string) *sql.DB { // want openServing:"startsGoroutine" openServing:"detachesPerCall" openServing:"waitsOnNetwork" openServing:"waitsNoContext"
	db, _ := Open(dsn) // want `pool without a maximum: the \*sql.DB that dbopen.Open returns is handed to the goroutine or deferred call of dbopen.serve without SetMaxOpenConns`
	_ = migrate(db)
	go serve(db)
	return db
}

func serve(db *sql.DB) { _ = db.Ping() } // want serve:"waitsOnNetwork" serve:"waitsNoContext"
