// Package inferstore keeps the pool it is given in a struct field; its
// callers are in other packages.
package inferstore

import "database/sql"

type Store struct{ db *sql.DB }

func New(db *sql.DB) *Store { return &Store{db: db} }

func (s *Store) Feeds() { s.db.Query("SELECT * FROM feeds") }

func (s *Store) Purge() { s.db.Exec("DELETE FROM feeds WHERE stale") }
