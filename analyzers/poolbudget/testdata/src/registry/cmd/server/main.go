// Command server links the MySQL-like backend, the small one and the
// in-process one, and opens the backend a flag names through the
// registry: the worst server backend is the unbounded one (under its
// flag's default), and an in-process backend is no alternative.
package main

import (
	"flag"

	"registry/storage"
	_ "registry/storage/memory"
	_ "registry/storage/mysqlish"
	_ "registry/storage/small"
)

var system = flag.String("storage_system", "mysql", "storage backend")

func main() { // want `ERR_POOL_BUDGETS_EXCEED_DATABASE: db in storage.NewProvider → mysqlish.newProvider → mysqlish.open \(the default of flag -max_conns; the worst of 2 constructors registered in storage.providers\) has no maximum, so 30 replicas may open`
	flag.Parse()
	_, _ = storage.NewProvider(*system)
}
