// Command relayed reaches the registry through a package that imports no
// database package.
package main

import (
	"registry/relay"
	_ "registry/storage/mysqlish"
)

func main() { // want `db in relay.Start → storage.NewProvider → mysqlish.newProvider → mysqlish.open \(the default of flag -max_conns\) has no maximum`
	_ = relay.Start("mysql")
}
