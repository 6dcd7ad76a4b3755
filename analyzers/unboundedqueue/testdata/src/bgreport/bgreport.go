// Package bgreport runs a dashboard's report queries in read-only
// transactions begun with context.Background().
package bgreport

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
)

type Manager struct{ db *sqlx.DB }

func New(db *sqlx.DB) *Manager { return &Manager{db: db} }

// Counts is reached by a request in the program's main package.
func (m *Manager) Counts() (int, error) { // want Counts:"waitsOnNetwork" Counts:"waitsNoContext\\(\\(\\*sqlx.DB\\).BeginTxx in \\(Manager\\).Counts\\)"
	tx, err := m.db.BeginTxx(context.Background(), &sql.TxOptions{ReadOnly: true}) // want `wait with no deadline: \(\*sqlx.DB\).BeginTxx waits for a slot with a context from context.Background\(\) that has no deadline, in \(Manager\).Counts, and a request reaches it \(handleCounts\)`
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	return 0, nil
}
