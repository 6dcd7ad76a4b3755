// want package:`fieldValues\(urfave/envengine.config.MaxOpen = unknown\)`

// Package envengine stores a maximum read from the environment into the
// field its pool's maximum is read from: not a constant, not counted.
package envengine

import (
	"database/sql"
	"os"
	"strconv"
)

type config struct{ MaxOpen int }

// Open opens a pool whose maximum the environment gives.
func Open() *sql.DB { // want Open:`createsPools\(db sql.Open field urfave/envengine.config.MaxOpen dsn \$DATABASE_URL returned 0\)`
	n, _ := strconv.Atoi(os.Getenv("DB_MAX_OPEN"))
	cfg := &config{MaxOpen: n}
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(cfg.MaxOpen)
	return db
}
