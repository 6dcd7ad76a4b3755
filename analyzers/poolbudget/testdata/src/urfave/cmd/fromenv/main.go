// Command fromenv opens a pool whose maximum comes from the environment
// through a field: not counted, nothing to report.
package main

import "urfave/envengine"

func main() {
	_ = envengine.Open()
}
