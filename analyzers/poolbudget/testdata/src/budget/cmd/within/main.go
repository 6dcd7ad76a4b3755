// Command within stays within the database's budget: 30 × 3 = 90 ≤ 97.
package main

import (
	"database/sql"
	"os"

	"budget/store"
)

func main() {
	db, _ := store.OpenRaw(os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(3) // the caller bounds what the constructor returned
	_ = db
	c := store.NewConfigured()
	c.Configure(2) // through a field: not counted, and not unbounded
}

// unused opens big pools, but main never calls it.
func unused() {
	db, _ := sql.Open("pgx", "")
	db.SetMaxOpenConns(200)
	_ = store.NeverCalled()
}
