// want package:`flagNames\(-database.connection.open=0 -database.small=4\)`

// Package dbflags declares the database flags, urfave/cli structs, for
// the packages that read them by name; it opens nothing itself.
package dbflags

import "github.com/urfave/cli/v2"

// Flags are the database's flags.
var Flags = []cli.Flag{
	&cli.StringFlag{Name: "database.addr", Value: "postgres://"},
	&cli.IntFlag{
		EnvVars: []string{"DATABASE_CONNECTION_OPEN"},
		Name:    "database.connection.open",
		Usage:   "maximum number of open connections (0: no maximum)",
	},
	&cli.IntFlag{Name: "database.small", Value: 4},
}
