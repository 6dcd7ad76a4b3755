// Package sqlstore is the SQL store: one pool of one connection. // want package:"limitsPools"
package sqlstore

import (
	"context"
	"database/sql"
)

type Store struct {
	db    *sql.DB
	hooks []func()
}

// Uptimer is the part of the store a badge needs.
type Uptimer interface {
	Uptime(key string) int // want Uptime:"waitsOnNetwork" Uptime:"waitsNoContext"
}

func New(dsn string) *Store {
	db, _ := sql.Open("sqlite", dsn)
	db.SetMaxOpenConns(1)
	return &Store{db: db}
}

// Uptime is handed no context: a request that reaches it waits for the
// connection for as long as the pool stays taken.
func (s *Store) Uptime(key string) int { // want Uptime:"waitsNoContext\\(\\(\\*sql.DB\\).Begin in \\(Store\\).Uptime\\)" Uptime:"waitsOnNetwork"
	tx, _ := s.db.Begin() // want `wait with no deadline: \(\*sql.DB\).Begin waits for a pool slot with no context in \(Store\).Uptime, which is handed none, and a request reaches it \(uptime\)`
	defer tx.Rollback()
	var n int
	tx.QueryRow("SELECT up FROM uptimes WHERE k = ?", key).Scan(&n)
	tx.Commit()
	return n
}

// Count was handed a context and drops it: reported here, once, by the
// first package whose request reaches it (api's count handler). It also
// calls offset, handed none: the request waits there too.
func (s *Store) Count(ctx context.Context) int { // want Count:"waitsOnNetwork" Count:"ignoresContext" Count:`waitsNoContext\(\(\*sql.DB\).QueryRow in \(Store\).Count \+1\)`
	var n int
	s.db.QueryRow("SELECT count(*) FROM uptimes").Scan(&n) // want `though \(Store\).Count was handed one \(ctx\), and a request reaches it \(count\)`
	return n + s.offset()
}

func (s *Store) offset() int { // want offset:"waitsOnNetwork" offset:`waitsNoContext\(\(\*sql.DB\).QueryRow in \(Store\).offset\)`
	var n int
	s.db.QueryRow("SELECT base FROM offsets").Scan(&n) // want `wait with no deadline: \(\*sql.DB\).QueryRow waits for a pool slot with no context in \(Store\).offset, which is handed none, and a request reaches it \(count\)`
	return n
}

// Prune waits with no context too, and only the background job reaches it:
// no request waits behind it. Trap.
func (s *Store) Prune() { // want Prune:"waitsNoContext" Prune:"waitsOnNetwork"
	s.db.Exec("DELETE FROM uptimes WHERE old")
}

// OnPrune keeps a callback for later: it hands a function literal on and
// runs nothing, so a request that reaches it waits for nothing. Trap: the
// literal's waits are not OnPrune's (only a goroutine it starts runs on
// its behalf).
func (s *Store) OnPrune(ctx context.Context) { // want OnPrune:"ignoresContext" OnPrune:"waitsOnNetwork"
	s.hooks = append(s.hooks, func() { s.sweepLog() })
}

func (s *Store) sweepLog() { // want sweepLog:"waitsOnNetwork" sweepLog:`waitsNoContext\(\(\*sql.DB\).Exec in \(Store\).sweepLog\)`
	s.db.Exec("DELETE FROM log WHERE old")
}
