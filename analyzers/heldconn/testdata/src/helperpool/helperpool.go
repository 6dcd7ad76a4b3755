// Package helperpool hands its transaction to helpers for their
// statements; one of them also looks rows up on the service's pool.
package helperpool

import (
	"context"
	"database/sql"
	"net/http"

	"example.com/helperdao"
)

type Service struct{ db *sql.DB }

// linkGroups inserts through the transaction it is handed, but looks each
// group up on s.db: a connection of the pool's own.
func (s *Service) linkGroups(ctx context.Context, tx *sql.Tx, user int, groups []string) error { // want linkGroups:`queriesParam\(\[2\]\)` linkGroups:`queriesPool\(helperpool\.Service\.db\)`
	for _, g := range groups {
		id, err := helperdao.GroupID(ctx, s.db, g)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO user_groups VALUES ($1, $2)", user, id); err != nil {
			return err
		}
	}
	return nil
}

// CreateUser holds its transaction while linkGroups takes a second
// connection from the pool the transaction came from: at saturation every
// caller holds one and waits for another.
func (s *Service) CreateUser(ctx context.Context, name string, groups []string) error { // want CreateUser:`queriesPool\(helperpool\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO users(name) VALUES ($1)", name); err != nil {
		return err
	}
	if err := s.linkGroups(ctx, tx, 1, groups); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during \(\*helperpool.Service\).linkGroups \(→ helperdao.GroupID → \(\*sql.DB\).QueryRowContext\) on helperpool.Service.db, the pool it came from: a second connection from the same pool`
		return err
	}
	return tx.Commit()
}

// grantGroups looks each group up on s.db and grants it at the
// authorization service: two waits, on the pool and on the network.
func (s *Service) grantGroups(ctx context.Context, tx *sql.Tx, user int, groups []string) error { // want grantGroups:`queriesParam\(\[2\]\)` grantGroups:`queriesPool\(helperpool\.Service\.db\)`
	for _, g := range groups {
		id, err := helperdao.GroupID(ctx, s.db, g)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO user_groups VALUES ($1, $2)", user, id); err != nil {
			return err
		}
		if _, err := http.Post("http://authz/grants", "text/plain", nil); err != nil {
			return err
		}
	}
	return nil
}

// CreateAdmin holds its transaction across both of grantGroups' waits: the
// finding names the network call and points at both lines.
func (s *Service) CreateAdmin(ctx context.Context, name string, groups []string) error { // want CreateAdmin:`queriesPool\(helperpool\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.grantGroups(ctx, tx, 1, groups); err != nil { // want `transaction from \(\*sql.DB\).BeginTx is still held during \(\*helperpool.Service\).grantGroups \(→ http.Post`
		return err
	}
	return tx.Commit()
}

// ---- traps: must stay silent ----

// linkOnTx looks the groups up through the transaction too.
func linkOnTx(ctx context.Context, tx *sql.Tx, user int, groups []string) error { // want linkOnTx:`queriesParam\(\[1\]\)`
	for _, g := range groups {
		var id int
		if err := tx.QueryRowContext(ctx, "SELECT id FROM groups WHERE name = $1", g).Scan(&id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO user_groups VALUES ($1, $2)", user, id); err != nil {
			return err
		}
	}
	return nil
}

// CreateUserOnTx runs every statement on its one connection.
func (s *Service) CreateUserOnTx(ctx context.Context, name string, groups []string) error { // want CreateUserOnTx:`queriesPool\(helperpool\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO users(name) VALUES ($1)", name); err != nil {
		return err
	}
	if err := linkOnTx(ctx, tx, 1, groups); err != nil {
		return err
	}
	return tx.Commit()
}

// unitOfWork keeps its transaction in a field: no pool.
type unitOfWork struct{ tx *sql.Tx }

func (u *unitOfWork) count(ctx context.Context) (int, error) {
	var n int
	err := u.tx.QueryRowContext(ctx, "SELECT count(*) FROM users").Scan(&n)
	return n, err
}

// CountInside counts through the unit of work that holds the transaction.
func (s *Service) CountInside(ctx context.Context) (int, error) { // want CountInside:`queriesPool\(helperpool\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	u := &unitOfWork{tx: tx}
	n, err := u.count(ctx)
	if err != nil {
		return 0, err
	}
	return n, tx.Commit()
}

// prepareTx begins a transaction and hands back its commit and rollback.
func prepareTx(ctx context.Context, db *sql.DB) (*sql.Tx, func() error, func(), error) { // want prepareTx:`queriesParam\(\[1\]\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	return tx, tx.Commit, func() { _ = tx.Rollback() }, nil
}

// Trap: the first transaction is committed, through the commit prepareTx
// handed back, before the second begins.
func (s *Service) twoStepsCommitted(ctx context.Context) error { // want twoStepsCommitted:`queriesPool\(helperpool\.Service\.db\)`
	tx, commit, rollback, err := prepareTx(ctx, s.db)
	if err != nil {
		return err
	}
	defer rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE a SET n = 1"); err != nil {
		return err
	}
	if err := commit(); err != nil {
		return err
	}
	lease, leaseCommit, leaseRollback, err := prepareTx(ctx, s.db)
	if err != nil {
		return err
	}
	defer leaseRollback()
	if _, err := lease.ExecContext(ctx, "UPDATE b SET n = 1"); err != nil {
		return err
	}
	return leaseCommit()
}

// The same with the first transaction still open: a second connection.
func (s *Service) twoStepsNested(ctx context.Context) error { // want twoStepsNested:`queriesPool\(helperpool\.Service\.db\)`
	tx, commit, rollback, err := prepareTx(ctx, s.db)
	if err != nil {
		return err
	}
	defer rollback()
	lease, leaseCommit, leaseRollback, err := prepareTx(ctx, s.db) // want `transaction from helperpool.prepareTx is still held during helperpool.prepareTx \(→ \(\*sql.DB\).BeginTx\) on the pool handle helperpool.Service.db`
	if err != nil {
		return err
	}
	defer leaseRollback()
	if _, err := lease.ExecContext(ctx, "UPDATE b SET n = 1"); err != nil {
		return err
	}
	if err := leaseCommit(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE a SET n = 1"); err != nil {
		return err
	}
	return commit()
}

// putPayloads writes through the caller's transaction, and begins one on
// the pool only when the caller hands none.
func (s *Service) putPayloads(ctx context.Context, tx *sql.Tx, payloads []string) error {
	if tx == nil {
		own, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer own.Rollback()
		tx = own
	}
	for _, p := range payloads {
		if _, err := tx.ExecContext(ctx, "INSERT INTO payloads VALUES ($1)", p); err != nil {
			return err
		}
	}
	return nil
}

// Trap: handed the transaction, putPayloads takes no connection of its own.
func (s *Service) StoreAll(ctx context.Context, payloads []string) error { // want StoreAll:`queriesPool\(helperpool\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.putPayloads(ctx, tx, payloads); err != nil {
		return err
	}
	return tx.Commit()
}

// auditLater writes its audit row in a goroutine of its own.
func (s *Service) auditLater(ctx context.Context, what string) {
	go func() {
		_, _ = s.db.ExecContext(context.WithoutCancel(ctx), "INSERT INTO audit VALUES ($1)", what)
	}()
}

// Trap: the audit row is written by a goroutine; the transaction's holder
// does not wait for it.
func (s *Service) RenameAudited(ctx context.Context, name string) error { // want RenameAudited:`queriesPool\(helperpool\.Service\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "UPDATE users SET name = $1", name); err != nil {
		return err
	}
	s.auditLater(ctx, "rename")
	return tx.Commit()
}
