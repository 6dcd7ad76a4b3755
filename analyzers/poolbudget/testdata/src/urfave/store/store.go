// Package store opens the pool with the maximum its caller reads from the
// command line.
package store

import (
	"database/sql"
	"os"
)

// Open opens a pool of at most max connections.
func Open(max int) *sql.DB { // want Open:`createsPools\(db sql.Open param 0 dsn \$DATABASE_URL returned 0\)`
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(max)
	return db
}
