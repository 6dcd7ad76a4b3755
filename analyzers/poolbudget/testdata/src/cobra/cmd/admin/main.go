// Command admin is the cobra tree of cobra/cli: the server and a one-shot
// reset-password command. The command line runs one of them, so the
// reset-password pool with no maximum is not the replicated server's, and
// the server's own 3 × 10 fits: nothing to report.
package main

import "cobra/cli"

func main() {
	_ = cli.Root().Execute()
}
