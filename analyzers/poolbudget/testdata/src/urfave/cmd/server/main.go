// Command server reads its pool's maximum by name from a urfave/cli flag
// another package declares with no default: 0, no maximum.
package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"urfave/dbflags"
	"urfave/store"
)

func main() { // want `db in main.run → store.Open \(the default of flag -database.connection.open\) has no maximum`
	app := &cli.App{Flags: dbflags.Flags, Action: run}
	_ = app.Run(os.Args)
}

func run(c *cli.Context) error {
	_ = store.Open(c.Int("database.connection.open"))
	return nil
}
