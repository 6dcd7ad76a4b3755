// Command ignored suppresses the finding in main's doc comment, with a
// reason.
package main

import (
	"database/sql"
	"os"
)

// main connects through PgBouncer, whose own pool is the budget.
//
//bhlint:ignore ERR_POOL_BUDGETS_EXCEED_DATABASE PgBouncer in front: its pool_size is what the database sees
func main() {
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(50)
	_ = db
}
