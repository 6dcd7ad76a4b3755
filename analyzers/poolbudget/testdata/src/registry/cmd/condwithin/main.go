// Command condwithin sets its maximum under a condition its flag's default
// (3) meets: 30 × 3 = 90 ≤ 97. Nothing to report.
package main

import (
	"database/sql"
	"flag"
	"os"
)

var maxConns = flag.Int("db_max_conns", 3, "maximum connections (0: none)")

func main() {
	flag.Parse()
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	if *maxConns > 0 {
		db.SetMaxOpenConns(*maxConns)
	} else {
		db.SetMaxOpenConns(500)
	}
	_ = db
}
