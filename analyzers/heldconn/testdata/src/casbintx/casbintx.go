// Package casbintx writes authorization policies while a transaction is
// open: the enforcer's adapter writes them on another connection.
package casbintx

import (
	"context"
	"database/sql"

	casbin "github.com/casbin/casbin/v2"
)

type Service struct {
	db       *sql.DB
	enforcer *casbin.CachedEnforcer
}

// CreateUser inserts the user, then grants its roles through the enforcer
// before the commit: the policy write waits for a connection of its own
// while the transaction holds one.
func (s *Service) CreateUser(ctx context.Context, name string, roles [][]string) error { // want CreateUser:`queriesPool\(casbintx\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO users(name) VALUES ($1)", name); err != nil {
		return err
	}
	if _, err := s.enforcer.AddPolicies(roles); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during \(\*casbin.Enforcer\).AddPolicies, which waits on the network`
		return err
	}
	return tx.Commit()
}

// Trap: Enforce checks the policy in the enforcer's memory.
func (s *Service) RenameIfAllowed(ctx context.Context, who, name string) error { // want RenameIfAllowed:`queriesPool\(casbintx\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if ok, err := s.enforcer.Enforce(who, "users", "write"); err != nil || !ok {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE users SET name = $1", name); err != nil {
		return err
	}
	return tx.Commit()
}
