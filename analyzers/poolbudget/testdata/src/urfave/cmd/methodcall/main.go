// Command methodcall calls a method of its own package that opens a pool
// of 3: a call is followed once, not also taken for a function handed
// over (30 × 3 = 90 ≤ 97; counted twice it would be 180).
package main

import (
	"database/sql"
	"os"
)

type app struct{ db *sql.DB }

func (a *app) open() {
	a.db, _ = sql.Open("pgx", os.Getenv("DATABASE_URL"))
	a.db.SetMaxOpenConns(3)
}

func main() {
	a := &app{}
	(a.open)()
}
