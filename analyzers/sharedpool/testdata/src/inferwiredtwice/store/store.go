// Package store opens the program's pool: every command that needs a // want package:`lanes\(\)`
// database calls NewDB.
package store

import "database/sql"

type DB struct{ pool *sql.DB }

func NewDB(dsn string) (*DB, error) { // want NewDB:`creates\(store\.DB\.pool\)`
	pool, err := sql.Open("postgres", dsn) // want `store.DB.pool, a database pool created once, serves both interactive and background work`
	if err != nil {
		return nil, err
	}
	pool.SetMaxOpenConns(10)
	return &DB{pool: pool}, nil
}

func (d *DB) Find() { d.pool.Query("SELECT 1") } // want Find:`reaches\(store\.DB\.pool\(no lane\)\)`

func (d *DB) Sweep() { d.pool.Exec("DELETE FROM sessions WHERE expired") } // want Sweep:`reaches\(store\.DB\.pool\(no lane\)\)`
