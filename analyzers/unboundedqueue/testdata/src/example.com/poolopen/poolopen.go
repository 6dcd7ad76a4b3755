// Package poolopen is the program's own opener package (a module's, by its // want package:"limitsPools"
// path): a pool it opens and hands back with no maximum is reported at its
// open, the line to change, whichever caller stores it.
package poolopen

import (
	"database/sql"

	"dbopen"
)

// Open is called by two stores; its one open is one finding.
func Open(dsn string) (*sql.DB, error) { // want Open:"opensUnboundedDB\\(0, sql.Open\\)"
	db, err := sql.Open("pgx", dsn) // want `pool without a maximum: the \*sql.DB this sql.Open opens is handed back by poolopen.Open with no maximum and stored in a struct without SetMaxOpenConns`
	if err != nil {
		return nil, err
	}
	db.SetMaxIdleConns(5)
	return db, nil
}

// OpenFor chooses the driver: each branch is a line to change.
func OpenFor(driver, dsn string) (*sql.DB, error) { // want OpenFor:"opensUnboundedDB\\(0, sql.Open\\)"
	if driver == "mysql" {
		return sql.Open("mysql", dsn) // want `pool without a maximum: the \*sql.DB this sql.Open opens is handed back by poolopen.OpenFor`
	}
	return sql.Open("pgx", dsn) // want `pool without a maximum: the \*sql.DB this sql.Open opens is handed back by poolopen.OpenFor`
}

// OpenVia hands back a dependency's pool: the program's line is its call
// of the dependency (dbopen is outside the module), not the sql.Open in
// the module cache.
func OpenVia(dsn string) (*sql.DB, error) { // want OpenVia:"opensUnboundedDB\\(0, dbopen.Open\\)"
	return dbopen.Open(dsn) // want `pool without a maximum: the \*sql.DB this dbopen.Open opens is handed back by poolopen.OpenVia`
}

// Trap: every caller bounds what OpenRaw opens.
func OpenRaw(dsn string) (*sql.DB, error) { // want OpenRaw:"opensUnboundedDB\\(0, sql.Open\\)"
	return sql.Open("pgx", dsn)
}

// Trap: a caller bounds it only when configured: the caller's if is the
// line to change, reported there.
func OpenConfigured(dsn string) (*sql.DB, error) { // want OpenConfigured:"opensUnboundedDB\\(0, sql.Open\\)"
	return sql.Open("pgx", dsn)
}
