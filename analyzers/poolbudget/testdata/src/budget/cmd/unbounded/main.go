// Command unbounded opens a pool with no maximum: the worst case, whatever
// the other pools add up to.
package main

import (
	"database/sql"
	"os"

	"budget/store"
)

func main() { // want `ERR_POOL_BUDGETS_EXCEED_DATABASE: db has no maximum, so 30 replicas may open as many connections to database main as their load asks for, which allows 97 \(max-connections 100 − reserved 3\); give every pool a maximum, together at most 3 per replica`
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	small := store.New()
	_, _ = db, small
}
