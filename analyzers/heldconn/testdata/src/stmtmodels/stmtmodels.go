// Package stmtmodels runs statements it is given, as listmonk's models do.
package stmtmodels

import "github.com/jmoiron/sqlx"

type Subscribers []int

// LoadLists executes the statement passed to it.
func (subs Subscribers) LoadLists(stmt *sqlx.Stmt) error { // want LoadLists:"execsStmtParam\\(\\[1\\]\\)"
	var out []int
	return stmt.Select(&out, subs)
}

// Describe only keeps the statement.
func Describe(stmt *sqlx.Stmt) string { return "stmt" }
