package dbopen

import "database/sql"

// Driver opens the pool behind an interface, as temporal's SQL plugins do:
// every implementation in this package opens a fresh pool and hands it
// back, so the interface method is an opener too.
type Driver interface {
	CreateConnection(dsn string) (*sql.DB, error) // want CreateConnection:"opensUnboundedDB\\(0, sql.Open\\)"
}

type PGXDriver struct{}

func (PGXDriver) CreateConnection(dsn string) (*sql.DB, error) { // want CreateConnection:"opensUnboundedDB\\(0, sql.Open\\)"
	return sql.Open("pgx", dsn)
}

type PQDriver struct{}

func (*PQDriver) CreateConnection(dsn string) (*sql.DB, error) { // want CreateConnection:"opensUnboundedDB\\(0, sql.Open\\)"
	return sql.Open("postgres", dsn)
}

// Source is a trap: one implementation hands back the pool it already
// holds (an accessor), so a call through the interface may return a
// shared pool someone else bounds, and the method is no opener.
type Source interface {
	Pool(dsn string) (*sql.DB, error)
}

type opening struct{}

func (opening) Pool(dsn string) (*sql.DB, error) { // want Pool:"opensUnboundedDB\\(0, sql.Open\\)"
	return sql.Open("pgx", dsn)
}

type holding struct{ db *sql.DB }

func (h holding) Pool(string) (*sql.DB, error) { return h.db, nil }
