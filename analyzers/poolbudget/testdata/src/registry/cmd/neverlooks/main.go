// Command neverlooks links the unbounded backend, whose init registers it,
// but never calls through the registry: no pool is opened.
package main

import (
	"registry/storage"
	_ "registry/storage/mysqlish"
)

func main() {
	_ = storage.Register
}
