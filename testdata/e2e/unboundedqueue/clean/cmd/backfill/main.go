// Command backfill is a one-shot program: it opens a pool, waits with
// context.Background(), and exits.
package main

import (
	"context"
	"database/sql"
	"log"

	_ "github.com/jackc/pgx/v5/stdlib"
)

type job struct{ db *sql.DB }

func main() {
	db, err := sql.Open("pgx", "postgres://localhost/payments")
	if err != nil {
		log.Fatal(err)
	}
	j := &job{db: db}
	if err := j.run(); err != nil {
		log.Fatal(err)
	}
}

func (j *job) run() error {
	conn, err := j.db.Conn(context.Background())
	if err != nil {
		return err
	}
	return conn.Close()
}
