// Package orders is a store whose methods wait for its pool's slots on the
// context their caller hands them.
package orders

import (
	"context"
	"database/sql"
)

type Store struct{ db *sql.DB }

func New(db *sql.DB) *Store { return &Store{db: db} }

// Save begins on the caller's context: the caller decides the deadline.
func (s *Store) Save(ctx context.Context, id int) error { // want Save:"forwardsSlotWait\\(ctx=0, pool=-1, \\(\\*sql.DB\\).BeginTx\\)"
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders VALUES ($1)", id); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Archive forwards the context to Save with values added: a forwarder too.
func (s *Store) Archive(ctx context.Context, id int) error { // want Archive:"forwardsSlotWait\\(ctx=0, pool=-1, \\(\\*orders.Store\\).Save → \\(\\*sql.DB\\).BeginTx\\)"
	return s.Save(context.WithValue(ctx, struct{}{}, "archive"), id)
}

// SaveWithin bounds the wait itself.
func (s *Store) SaveWithin(ctx context.Context, id int) error {
	ctx, cancel := context.WithTimeout(ctx, 1e9)
	defer cancel()
	_, err := s.db.ExecContext(ctx, "INSERT INTO orders VALUES ($1)", id)
	return err
}

// Later runs the query in a goroutine of its own: not a wait of the call.
func (s *Store) Later(ctx context.Context) {
	go func() { s.db.ExecContext(ctx, "VACUUM") }()
}

// Migrate creates the schema: it runs before anything serves (schema.go).
func (s *Store) Migrate(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS orders (id int)")
	return err
}

// Queries is sqlc's shape: the interface field may hold a pool or a
// transaction, which only the code that built it knows.
type DBTX interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

type Queries struct{ db DBTX }

func (q *Queries) Touch(ctx context.Context) error {
	_, err := q.db.ExecContext(ctx, "UPDATE orders SET touched = now()")
	return err
}
