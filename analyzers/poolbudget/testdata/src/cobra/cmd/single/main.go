// Command single has one cobra command: its action is the program's work,
// and its pool has no maximum.
package main

import "cobra/cli"

func main() { // want `sql.Open in cli.Serve has no maximum`
	_ = cli.Serve().Execute()
}
