// Package tokens keeps the pool it is handed in its store's field.
package tokens

import "database/sql"

type Store struct{ db *sql.DB }

func New(db *sql.DB) *Store { return &Store{db: db} } // want New:`storesParam\(inferlinked/tokens\.Store\.db\)`

func (s *Store) Find(id string) { s.db.Exec("SELECT 1 FROM tokens WHERE id = $1", id) }
