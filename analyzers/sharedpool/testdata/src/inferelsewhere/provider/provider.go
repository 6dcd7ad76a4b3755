// Package provider keeps the one store of the program in a package-level // want package:`lanes\(\)`
// variable; the opener for the configured kind fills it.
package provider

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strings"
)

type Store interface {
	Get(k string) string
	Put(k string)
}

var current Store

var openers = map[string]func(dsn string) error{"pg": openPG}

// Open runs the opener of the kind: a call through the map, which no
// static call graph follows.
func Open(kind, dsn string) error { return openers[kind](dsn) }

type pgStore struct{ db *sql.DB }

// openPG opens the pool in one of two ways: the first in the source is
// where the finding sits, whichever runs.
func openPG(dsn string) error {
	var db *sql.DB
	var err error
	if strings.HasPrefix(dsn, "random:") {
		db = sql.OpenDB(connector{dsn}) // want `provider.pgStore.db, a database pool created once, serves both interactive and background work`
	} else {
		db, err = sql.Open("postgres", dsn)
	}
	if err != nil {
		return err
	}
	current = &pgStore{db: db}
	return nil
}

func (s *pgStore) Get(k string) string { // want Get:`reaches\(provider\.pgStore\.db\(no lane\)\)`
	var v string
	s.db.QueryRow("SELECT v FROM kv WHERE k = $1", k).Scan(&v)
	return v
}

func (s *pgStore) Put(k string) { s.db.Exec("INSERT INTO kv VALUES ($1)", k) } // want Put:`reaches\(provider\.pgStore\.db\(no lane\)\)`

func Get(k string) string { return current.Get(k) } // want Get:`reaches\(via \(provider\.Store\)\.Get\)`

func Put(k string) { current.Put(k) } // want Put:`reaches\(via \(provider\.Store\)\.Put\)`

// sessions is the handlers' own pool: the jobs never reach it, so it is
// not shared and nothing is reported where it is opened.
var sessionOpeners = map[string]func(dsn string){"pg": openSessions}

var sessions *sql.DB

func OpenSessions(dsn string) { sessionOpeners["pg"](dsn) }

func openSessions(dsn string) {
	sessions, _ = sql.Open("postgres", dsn)
}

func Session(id string) string { // want Session:`reaches\(provider\.sessions\(no lane\)\)`
	var v string
	sessions.QueryRow("SELECT v FROM sessions WHERE id = $1", id).Scan(&v)
	return v
}

type connector struct{ dsn string }

func (c connector) Connect(context.Context) (driver.Conn, error) { return nil, nil }

func (c connector) Driver() driver.Driver { return nil }

// audit is shared too, and the team has accepted it where it is opened:
// the ignore there holds for the finding main reports at that line, and is
// not reported as suppressing nothing here.
var auditOpeners = map[string]func(dsn string){"pg": openAudit}

var audit *sql.DB

func OpenAudit(dsn string) { auditOpeners["pg"](dsn) }

func openAudit(dsn string) {
	//bhlint:ignore ERR_SHARED_FAILURE_DOMAIN_DETECTED audit writes are few and short; one pool is enough
	audit, _ = sql.Open("postgres", dsn)
}

func Audit(event string) { audit.Exec("INSERT INTO audit VALUES ($1)", event) } // want Audit:`reaches\(provider\.audit\(no lane\)\)`
