// Package gorplike is a dependency vendored into the program (as go-gorp):
// its DbMap.Begin waits for a pool slot with no context, which the program
// cannot change.
package gorplike

import (
	"context"
	"database/sql"
)

type DbMap struct{ Db *sql.DB }

type Transaction struct{ tx *sql.Tx }

func begin(m *DbMap) (*sql.Tx, error) { return m.Db.Begin() }

// Begin takes a connection with no context.
func (m *DbMap) Begin() (*Transaction, error) {
	tx, err := begin(m)
	return &Transaction{tx}, err
}

// BeginContext takes one for as long as ctx allows.
func (m *DbMap) BeginContext(ctx context.Context) (*Transaction, error) {
	tx, err := m.Db.BeginTx(ctx, nil)
	return &Transaction{tx}, err
}
