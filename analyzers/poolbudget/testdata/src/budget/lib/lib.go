// Package lib is not a main package: its func main is an ordinary
// function, and its pools count only where a main package calls it.
package lib

import "database/sql"

func main() { // want main:`createsPools\(db sql.Open 1000\)`
	db, _ := sql.Open("pgx", "")
	db.SetMaxOpenConns(1000)
	_ = db
}
