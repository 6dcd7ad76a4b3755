// Package inferstore keeps the pool it is given in a struct field, and
// copies it into a query builder's field; its callers are in other
// packages.
package inferstore

import "database/sql"

type Store struct{ db *sql.DB }

func New(db *sql.DB) *Store { return &Store{db: db} }

func (s *Store) Feeds() { s.db.Query("SELECT * FROM feeds") }

func (s *Store) Purge() { s.db.Exec("DELETE FROM feeds WHERE stale") }

// query holds the same pool as the Store that made it.
type query struct{ db *sql.DB }

func (s *Store) newQuery() *query { return &query{db: s.db} }

func (q *query) run() { q.db.Query("SELECT * FROM entries") }

func (s *Store) Search() { s.newQuery().run() }
