// Package helperpool hands its transaction to helpers for their
// statements; one of them also looks rows up on the service's pool.
package helperpool

import (
	"context"
	"database/sql"

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
