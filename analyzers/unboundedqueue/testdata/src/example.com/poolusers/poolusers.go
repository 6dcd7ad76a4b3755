// Package poolusers stores the pools poolopen opens. // want package:"limitsPools" package:"noContextWaitsReported\\(4\\)"
package poolusers

import (
	"database/sql"

	"dbopen"
	"example.com/poolopen"
)

type Store struct{ db *sql.DB }

// NewStore and NewEvents store poolopen.Open's pool: one finding, at the
// open inside poolopen.Open.
func NewStore(dsn string) *Store {
	db, _ := poolopen.Open(dsn)
	return &Store{db: db}
}

func NewEvents(dsn string) *Store {
	db, _ := poolopen.Open(dsn)
	return &Store{db: db}
}

func NewByDriver(driver, dsn string) *Store {
	db, _ := poolopen.OpenFor(driver, dsn)
	return &Store{db: db}
}

func NewVia(dsn string) *Store {
	db, _ := poolopen.OpenVia(dsn)
	return &Store{db: db}
}

// A dependency's opener called here: this call is the line to change.
func NewFromLibrary(dsn string) *Store {
	db, _ := dbopen.Open(dsn) // want `pool without a maximum: the \*sql.DB from dbopen.Open is stored in a struct without SetMaxOpenConns`
	return &Store{db: db}
}

// Trap: the caller bounds the pool.
func NewBounded(dsn string) *Store {
	db, _ := poolopen.OpenRaw(dsn)
	db.SetMaxOpenConns(10)
	return &Store{db: db}
}

type Config struct{ MaxConns int }

func NewConfigured(cfg Config, dsn string) *Store {
	db, _ := poolopen.OpenConfigured(dsn) // want `pool without a maximum: the \*sql.DB from poolopen.OpenConfigured is stored in a struct with a maximum only when cfg.MaxConns > 0`
	if cfg.MaxConns > 0 {
		db.SetMaxOpenConns(cfg.MaxConns)
	}
	return &Store{db: db}
}
