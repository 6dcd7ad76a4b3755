// Command options hands its work to urfave/cli (app.Action = server); the
// server builds the engine from the command line, whose maximum travels
// through a functional option into a field: under the flag's default, 0,
// the pool has no maximum.
package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"urfave/engine"
)

func main() { // want `e.client in main.server → engine.FromCLI → engine.New \(the default of flag -database.connection.open\) has no maximum`
	app := cli.App{Flags: engine.Flags}
	app.Action = server
	_ = app.Run(os.Args)
}

func server(c *cli.Context) error {
	_ = engine.FromCLI(c)
	return nil
}
