// Command own stores its pool openers in its own struct: not handed to a
// framework, so both pools count, and both have no maximum.
package main

import "cobra/cli"

func main() { // want `db in cli.Own, db in cli.Own have no maximum`
	_ = cli.Own()
}
