// Package taskqueue queues tasks through a builder that can be handed the
// caller's transaction (Tx) but holds none of its own: Add only builds the
// operation, and Save begins its one transaction itself when it was handed
// none (as backlite's TaskAddOp does).
package taskqueue

import (
	"context"
	"database/sql"
)

type Client struct{ db *sql.DB }

type AddOp struct {
	client *Client
	ctx    context.Context
	tasks  []string
	tx     *sql.Tx
}

func (c *Client) Add(tasks ...string) *AddOp { return &AddOp{client: c, tasks: tasks} }

// Ctx sets the request's context.
func (o *AddOp) Ctx(ctx context.Context) *AddOp {
	o.ctx = ctx
	return o
}

// Tx runs the insert in a transaction the caller holds.
func (o *AddOp) Tx(tx *sql.Tx) *AddOp {
	o.tx = tx
	return o
}

func (o *AddOp) Save() error { return o.client.save(o) } // want Save:`queriesPool\(taskqueue\.Client\.db\)` Save:`endsHanded\(transaction\)`

func (c *Client) save(op *AddOp) (err error) { // want save:`queriesPool\(taskqueue\.Client\.db\)` save:`endsHanded\(transaction\)`
	commit := false
	if op.tx == nil {
		if op.tx, err = c.db.BeginTx(op.ctx, nil); err != nil {
			return err
		}
		commit = true
	}
	for _, t := range op.tasks {
		if _, err = op.tx.ExecContext(op.ctx, "INSERT INTO tasks VALUES ($1)", t); err != nil {
			return err
		}
	}
	if commit {
		return op.tx.Commit()
	}
	return nil
}
