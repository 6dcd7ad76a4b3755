// Package dbcallers receives pools from dbopen: the facts decide. // want package:"limitsPools"
package dbcallers

import (
	"database/sql"

	"dbopen"
)

type Lane struct{ db *sql.DB }

func storesUnbounded(dsn string) *Lane {
	db, err := dbopen.Open(dsn) // want `pool without a maximum: the \*sql.DB from dbopen.Open is stored in a struct without SetMaxOpenConns`
	if err != nil {
		return nil
	}
	return &Lane{db: db}
}

func storesWrapped(dsn string) *Lane {
	_, db := dbopen.Wrap(dsn) // want `the \*sql.DB from dbopen.Wrap is stored in a struct`
	return &Lane{db: db}
}

func storesEitherDriver(dsn string) *Lane {
	db, _ := dbopen.OpenFor(dsn) // want `pool without a maximum: the \*sql.DB from dbopen.OpenFor is stored in a struct without SetMaxOpenConns`
	return &Lane{db: db}
}

// Traps: the caller bounds what dbopen.Open returned.

func boundsItself(dsn string) *Lane {
	db, err := dbopen.Open(dsn)
	if err != nil {
		return nil
	}
	db.SetMaxOpenConns(40)
	return &Lane{db: db}
}

func boundsThroughLimit(dsn string) *Lane {
	db, _ := dbopen.Open(dsn)
	dbopen.Limit(db, 15)
	return &Lane{db: db}
}

func alreadyBounded(dsn string) *Lane {
	db, _ := dbopen.OpenBounded(dsn)
	return &Lane{db: db}
}

type Server struct{ h *dbopen.Handle }

// The caller of a wrapping opener bounds the pool through the handle
// (statping's configs.Connect: db := dbSession.DB(); db.SetMaxOpenConns(n)).
func boundsThroughHandle(dsn string) *Server {
	h, _ := dbopen.OpenHandle(dsn)
	db := h.DB()
	db.SetMaxOpenConns(25)
	return &Server{h: h}
}

func storesHandle(dsn string) *Server {
	h, _ := dbopen.OpenHandle(dsn) // want `pool without a maximum: .*dbopen.OpenHandle is stored in a struct without SetMaxOpenConns`
	return &Server{h: h}
}

func storesMigrated(dsn string) *Lane { // want storesMigrated:"waitsOnNetwork"
	db, _ := dbopen.OpenMigrated(dsn) // want `pool without a maximum: the \*sql.DB from dbopen.OpenMigrated is stored in a struct without SetMaxOpenConns`
	return &Lane{db: db}
}

// After cerbos' Postgres store: the maximum comes only with the optional
// connPool section.
func storesConfiguredOnly(dsn string, conf *dbopen.PoolConf) *Lane {
	db, _ := dbopen.OpenWithRetries(dsn) // want `pool without a maximum: the \*sql.DB from dbopen.OpenWithRetries is stored in a struct`
	conf.Configure(db)
	return &Lane{db: db}
}

func storesAlwaysBounded(dsn string) *Lane {
	db, _ := dbopen.OpenWithRetries(dsn)
	dbopen.Always(db, 20)
	return &Lane{db: db}
}
