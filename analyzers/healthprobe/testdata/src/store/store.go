// Package store is a repository another package's probe reaches: the
// facts carry its pool use across the package boundary.
package store

import (
	"context"

	"github.com/jmoiron/sqlx"
)

type Store struct{ db *sqlx.DB }

func New(db *sqlx.DB) *Store { return &Store{db: db} }

// Ping reaches the pool request traffic uses (UserName below).
func (s *Store) Ping(ctx context.Context) error { return s.check(ctx) }

func (s *Store) check(ctx context.Context) error { return s.db.PingContext(ctx) }

func (s *Store) UserName(ctx context.Context, id int) (string, error) {
	var name string
	err := s.db.QueryRowContext(ctx, "SELECT name FROM users WHERE id = $1", id).Scan(&name)
	return name, err
}

// Pinger is what the probes of other packages hold.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Stats answers from the process: no connection.
func (s *Store) Stats() int { return s.db.Stats().OpenConnections }
