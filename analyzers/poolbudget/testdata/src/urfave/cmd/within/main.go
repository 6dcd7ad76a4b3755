// Command within reads a urfave/cli flag whose default, 4, keeps the
// fleet within the budget: 30 × 4 = 120 > 97 would not, so the flag's
// default is 3 here. Nothing to report.
package main

import (
	"os"

	"github.com/urfave/cli/v2"

	"urfave/store"
)

var flags = []cli.Flag{&cli.IntFlag{Name: "db.max", Value: 3}}

func main() {
	app := &cli.App{Flags: flags, Action: func(c *cli.Context) error {
		_ = store.Open(c.Int("db.max"))
		return nil
	}}
	_ = app.Run(os.Args)
}
