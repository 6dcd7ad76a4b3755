// Command migrate is a one-shot program: it opens a pool, runs, and exits.
// Trap for shapes 3 and 4.
package main

import (
	"context"
	"database/sql"

	"golang.org/x/sync/semaphore"
)

type runner struct{ db *sql.DB }

func main() { // want main:"waitsOnNetwork" main:"waitsNoContext"
	db, _ := sql.Open("pgx", "postgres://")
	r := &runner{db: db}
	r.run()
}

func (r *runner) run() { // want run:"takesSlot" run:"waitsOnNetwork" run:"waitsNoContext"
	ctx := context.Background()
	conn, _ := r.db.Conn(ctx)
	defer conn.Close()
	sem := semaphore.NewWeighted(1)
	sem.Acquire(context.TODO(), 1)
}
