// Package signup creates a user and their first project in one transaction.
package signup

import (
	"context"
	"database/sql"

	"example.com/projects"
)

type Server struct {
	db      *sql.DB
	creator projects.Creator
}

// CreateUser holds the transaction while the creator, through its
// interface, calls the authorization service over the SDK's interfaces.
func (s *Server) CreateUser(ctx context.Context, name string) error { // want CreateUser:`queriesPool\(signup\.Server\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO users (name) VALUES ($1)", name); err != nil {
		return err
	}
	if err := s.creator.Provision(ctx, tx, name); err != nil { // want `ERR_CONN_HELD_ACROSS_NETWORK_CALL: transaction from \(\*sql.DB\).BeginTx is still held during \(projects.Creator\).Provision \[implemented by \(\*projects.creator\).Provision\] \(→ .* → \(\*http.Client\).Do\), which waits on the network`
		return err
	}
	return tx.Commit()
}

// Rename validates inside the transaction (reads and in-memory options
// only) and provisions after the commit.
func (s *Server) Rename(ctx context.Context, name string) error { // want Rename:`queriesPool\(signup\.Server\.db\)`
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := s.creator.Validate(ctx, tx, name); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return s.creator.Provision(ctx, nil, name)
}
