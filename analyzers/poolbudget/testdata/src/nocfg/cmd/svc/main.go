// Command svc declares no databases: nothing to compare with, silent.
package main

import "database/sql"

func main() {
	db, _ := sql.Open("pgx", "")
	_ = db
}
