// Package repo implements the service's repository. Its Count is called // want package:"limitsPools"
// through service.UserRepo by packages that cannot see this
// implementation: no request's path can be followed to it, so the wait
// that ignores the handed context is reported where it is. A method of
// its own that implements nothing is judged where a request reaches it:
// here, none does.
package repo

import (
	"context"
	"database/sql"

	"example.com/svcrepo/service"
)

type Users struct{ db *sql.DB }

func New(db *sql.DB) service.UserRepo { // want New:`boundsDBParam\(\[0\]\)`
	db.SetMaxOpenConns(10)
	return &Users{db: db}
}

func (u *Users) Count(ctx context.Context) int { // want Count:"waitsOnNetwork" Count:"ignoresContext"
	var n int
	_ = u.db.QueryRow("SELECT count(*) FROM users").Scan(&n) // want `wait with no deadline: \(\*sql.DB\).QueryRow waits for a pool slot with no context, though Count was handed one \(ctx\)`
	return n
}

// Trap: not a method of the service's interface, and no request reaches
// it.
func (u *Users) Vacuum(ctx context.Context) { // want Vacuum:"waitsOnNetwork" Vacuum:"ignoresContext" Vacuum:`waitsNoContext\(\(\*sql.DB\).Exec in \(Users\).Vacuum\)`
	_, _ = u.db.Exec("VACUUM")
}
