// Command condflag sets its pool's maximum only when a flag asks for one,
// and the flag's default (0) does not: unbounded under the default.
package main

import (
	"database/sql"
	"flag"
	"os"
)

var maxConns = flag.Int("db_max_conns", 0, "maximum connections (0: none)")

func main() { // want `db \(the default of flag -db_max_conns\) has no maximum`
	flag.Parse()
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	if *maxConns > 0 {
		db.SetMaxOpenConns(*maxConns)
	}
	_ = db
}
