// Command migrate is a one-shot tool deploy.commands leaves out: its pool
// with no maximum is not checked.
package main

import (
	"database/sql"
	"os"
)

func main() {
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	defer db.Close()
}
