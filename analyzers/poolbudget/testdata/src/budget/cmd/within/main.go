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
}

// unused opens big pools, but main never calls it.
func unused() {
	db, _ := sql.Open("pgx", "")
	db.SetMaxOpenConns(200)
	_ = store.NeverCalled()
}
