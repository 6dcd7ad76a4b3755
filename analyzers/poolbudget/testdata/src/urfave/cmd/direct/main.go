// Command direct sets the maximum to a cross-package flag's non-zero
// default, 4: 30 × 4 = 120 > 97.
package main

import (
	"database/sql"
	"os"

	"github.com/urfave/cli/v2"

	_ "urfave/dbflags"
)

func main() { // want `30 replicas × \(4 db in main.open \(the default of flag -database.small\)\) = 120 connections`
	_ = (&cli.App{Action: open}).Run(os.Args)
}

func open(c *cli.Context) error {
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(c.Int("database.small"))
	return nil
}
