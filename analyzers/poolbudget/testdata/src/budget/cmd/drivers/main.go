// Command drivers opens one of two pools, by driver, into one variable and
// bounds it after: the alternatives are one pool of 3 (30 × 3 = 90 ≤ 97),
// not an unbounded one beside it.
package main

import (
	"database/sql"
	"os"
)

func main() {
	var db *sql.DB
	switch os.Getenv("DB_DRIVER") {
	case "mysql":
		db, _ = sql.Open("mysql", os.Getenv("DATABASE_URL"))
	default:
		db, _ = sql.Open("pgx", os.Getenv("DATABASE_URL"))
	}
	db.SetMaxOpenConns(3)
}
