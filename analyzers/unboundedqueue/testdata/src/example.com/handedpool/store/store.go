// Package store opens no pool: the program hands it one (after
// sliding-sync's sync2 and state stores on the *sqlx.DB its v3.go opens).
// Its waits with no context are waits for a slot of that pool when the
// program gives it a maximum.
package store

import (
	"context"
	"database/sql"
)

type Tokens struct{ db *sql.DB }

func New(db *sql.DB) *Tokens { return &Tokens{db: db} }

// Token is a request's first lookup, with no context.
func (t *Tokens) Token(id string) string { // want Token:"waitsNoContext" Token:"waitsOnNetwork"
	var tok string
	_ = t.db.QueryRow("SELECT token FROM tokens WHERE id = $1", id).Scan(&tok) // want `wait with no deadline: \(\*sql.DB\).QueryRow waits for a pool slot with no context in \(Tokens\).Token, which is handed none, and a request reaches it`
	return tok
}

// Trap: the same lookup with the caller's context.
func (t *Tokens) TokenCtx(ctx context.Context, id string) string { // want TokenCtx:"forwardsSlotWait" TokenCtx:"waitsOnNetwork"
	var tok string
	_ = t.db.QueryRowContext(ctx, "SELECT token FROM tokens WHERE id = $1", id).Scan(&tok)
	return tok
}

// Trap: a wait no request reaches (a clean-up the program runs at start).
func (t *Tokens) Prune() { // want Prune:"waitsNoContext" Prune:"waitsOnNetwork"
	_, _ = t.db.Exec("DELETE FROM tokens WHERE expired")
}
