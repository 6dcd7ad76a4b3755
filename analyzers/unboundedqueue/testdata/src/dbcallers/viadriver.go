package dbcallers

import (
	"database/sql"

	"dbopen"
)

type Config struct{ MaxConns int }

// openThrough opens through the driver interface and sets a maximum only
// when one is configured (temporal's createConnection): unset, none.
func openThrough(d dbopen.Driver, dsn string, cfg Config) (*sql.DB, error) {
	db, err := d.CreateConnection(dsn) // want `pool without a maximum: the \*sql.DB from \(dbopen.Driver\).CreateConnection is returned with a maximum only when cfg.MaxConns > 0`
	if err != nil {
		return nil, err
	}
	if cfg.MaxConns > 0 {
		db.SetMaxOpenConns(cfg.MaxConns)
	}
	return db, nil
}

// Traps: the caller bounds the pool the interface opened; the source's
// pool may be one another component owns.

func boundsThroughDriver(d dbopen.Driver, dsn string) *Lane {
	db, _ := d.CreateConnection(dsn)
	db.SetMaxOpenConns(20)
	return &Lane{db: db}
}

func storesFromSource(s dbopen.Source, dsn string) *Lane {
	db, _ := s.Pool(dsn)
	return &Lane{db: db}
}
