// Package projects provisions a project inside the caller's transaction.
package projects

import (
	"context"
	"database/sql"

	"example.com/authz"
)

type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

type Creator interface {
	Provision(ctx context.Context, qtx Querier, name string) error
	Validate(ctx context.Context, qtx Querier, name string) error
}

type creator struct{ authz authz.Client }

func NewCreator(a authz.Client) Creator { return &creator{authz: a} }

// Provision writes the project's row on the caller's transaction, then the
// authorization tuple over HTTP: the transaction stays open across it.
func (p *creator) Provision(ctx context.Context, qtx Querier, name string) error {
	if _, err := qtx.ExecContext(ctx, "INSERT INTO projects (name) VALUES ($1)", name); err != nil {
		return err
	}
	return p.authz.Write(ctx, name)
}

// Validate only reads through the transaction and sets the SDK's options in
// memory.
func (p *creator) Validate(ctx context.Context, qtx Querier, name string) error {
	p.authz.Options().WithRetries(1)
	_, err := qtx.ExecContext(ctx, "SELECT 1 FROM projects WHERE name = $1", name)
	return err
}
