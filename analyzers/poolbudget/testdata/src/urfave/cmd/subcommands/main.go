// Command subcommands hands two actions to its framework, serve and
// migrate: the command line runs one of them, so neither is counted (the
// one-shot migration's unbounded pool is not the replicated server's).
package main

import (
	"database/sql"
	"os"

	"github.com/urfave/cli/v2"
)

func main() {
	serve := &cli.App{Action: serveAction}
	migrate := &cli.App{Action: migrateAction}
	if len(os.Args) > 1 && os.Args[1] == "migrate" {
		_ = migrate.Run(os.Args)
		return
	}
	_ = serve.Run(os.Args)
}

func serveAction(*cli.Context) error {
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(2)
	return nil
}

func migrateAction(*cli.Context) error {
	_, _ = sql.Open("pgx", os.Getenv("DATABASE_URL"))
	return nil
}
