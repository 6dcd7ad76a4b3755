// Command withtest has tests: the test binary's main, and the package
// compiled with its tests, do not report again.
package main

import (
	"database/sql"
	"os"
)

func main() { // want `30 replicas × \(20 db\) = 600 connections`
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(20)
	_ = db
}
