// Package cli builds a cobra command tree: the server's action opens the
// pool the replicas run with, capped at 10; reset-password, a one-shot
// admin command, opens its own pool with no maximum and runs one query.
package cli

import (
	"database/sql"
	"os"

	"github.com/spf13/cobra"
)

func Root() *cobra.Command { // want Root:`createsPools\(db sql.Open 10 via cli.server dsn \$DATABASE_URL command RunE at cli/cli.go:22; db sql.Open unbounded via cli.resetPassword dsn \$DATABASE_URL command RunE at cli/cli.go:35\)`
	root := &cobra.Command{Use: "app"}
	root.AddCommand(server(), resetPassword())
	return root
}

func server() *cobra.Command { // want server:`createsPools\(db sql.Open 10 dsn \$DATABASE_URL command RunE at cli/cli.go:22\)`
	return &cobra.Command{
		Use: "server",
		RunE: func(*cobra.Command, []string) error {
			db, err := sql.Open("pgx", os.Getenv("DATABASE_URL"))
			if err != nil {
				return err
			}
			db.SetMaxOpenConns(10)
			return nil
		},
	}
}

func resetPassword() *cobra.Command { // want resetPassword:`createsPools\(db sql.Open unbounded dsn \$DATABASE_URL command RunE at cli/cli.go:35\)`
	cmd := &cobra.Command{Use: "reset-password"}
	cmd.RunE = func(*cobra.Command, []string) error {
		db, err := sql.Open("pgx", os.Getenv("DATABASE_URL"))
		if err != nil {
			return err
		}
		defer db.Close()
		return db.Ping()
	}
	return cmd
}

// Serve is the one action of a binary with no subcommands.
func Serve() *cobra.Command { // want Serve:`createsPools\(sql.Open sql.Open unbounded dsn \$DATABASE_URL command Run at cli/cli.go:50\)`
	return &cobra.Command{
		Use: "serve",
		Run: func(*cobra.Command, []string) {
			_, _ = sql.Open("pgx", os.Getenv("DATABASE_URL"))
		},
	}
}

// Options is the program's own struct: a literal stored in it is called by
// the program's code (Open), not by a framework, and stays part of the
// function that builds it.
type Options struct {
	Primary func() *sql.DB
	Replica func() *sql.DB
}

func Own() Options { // want Own:`createsPools\(db sql.Open unbounded dsn \$DATABASE_URL returned 0; db sql.Open unbounded dsn \$DATABASE_URL returned 0\)`
	return Options{
		Primary: func() *sql.DB { db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL")); return db },
		Replica: func() *sql.DB { db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL")); return db },
	}
}
