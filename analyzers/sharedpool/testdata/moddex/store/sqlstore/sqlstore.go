// Package sqlstore is the database backend: one pool per process, opened // want package:`lanes\(\)`
// by the open of the configured flavour.
package sqlstore

import (
	"database/sql"

	"example.com/moddex/store"
)

type conn struct{ db *sql.DB }

func (c *conn) Get(id string) string { // want Get:`reaches\(sqlstore\.conn\.db\(no lane\)\)`
	var v string
	c.db.QueryRow("SELECT v FROM t WHERE id = $1", id).Scan(&v)
	return v
}

func (c *conn) GC() error { // want GC:`reaches\(sqlstore\.conn\.db\(no lane\)\)`
	_, err := c.db.Exec("DELETE FROM t WHERE expiry < now()")
	return err
}

type Postgres struct{ DSN string }

func (p *Postgres) Open() (store.Store, error) { // want Open:`creates\(sqlstore\.conn\.db\)`
	db, err := sql.Open("postgres", p.DSN) // want `sqlstore.conn.db, a database pool created once, serves both interactive and background work`
	if err != nil {
		return nil, err
	}
	return &conn{db: db}, nil
}

type SQLite struct{ File string }

func (s *SQLite) Open() (store.Store, error) { // want Open:`creates\(sqlstore\.conn\.db\)`
	db, err := sql.Open("sqlite3", s.File)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return &conn{db: db}, nil
}
