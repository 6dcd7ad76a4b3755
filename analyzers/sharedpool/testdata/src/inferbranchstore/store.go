// Package inferbranchstore opens its one pool on one of two branches, as // want package:`lanes\(\)`
// the configured driver says (autobrr's database.DB.Open).
package inferbranchstore

import "database/sql"

type DB struct{ handler *sql.DB }

func New() *DB { return &DB{} }

// Open fills the field from one opening or the other: one pool, opened on
// whichever branch the driver picks.
func (db *DB) Open(driver string) error { // want Open:`creates\(inferbranchstore\.DB\.handler\)`
	var err error
	switch driver {
	case "postgres":
		db.handler, err = sql.Open("pgx", "postgres://")
	default:
		db.handler, err = sql.Open("sqlite", "file.db")
	}
	return err
}

// Reopen opens a pool and then another into the same field, one after the
// other: two pools, and neither opening is the one that creates it.
func (db *DB) Reopen() { // want Reopen:`reaches\(inferbranchstore\.DB\.handler\(no lane\)\)`
	db.handler, _ = sql.Open("sqlite", "a.db")
	db.handler.Close()
	db.handler, _ = sql.Open("sqlite", "b.db")
}

func (db *DB) Query() { // want Query:`reaches\(inferbranchstore\.DB\.handler\(no lane\)\)`
	db.handler.Exec("SELECT 1")
}
