// Package taskop queues a task from a handler through taskqueue's builder.
package taskop

import (
	"context"

	"taskqueue"
)

// ---- traps: must stay silent ----

// enqueue builds the operation and saves it: Add holds no transaction
// while Save takes its connection.
func enqueue(ctx context.Context, c *taskqueue.Client) error { // want enqueue:`queriesPool\(taskqueue\.Client\.db\)` enqueue:`endsHanded\(transaction\)`
	return c.Add("mail").Ctx(ctx).Save()
}
