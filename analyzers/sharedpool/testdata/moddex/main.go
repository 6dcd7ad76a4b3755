// Command moddex opens its storage through a map of configurations behind // want package:`lanes\(\)`
// an interface, as dex's StorageConfig does: no static call leads to the
// pool.
package main

import (
	"os"

	"example.com/moddex/server"
	"example.com/moddex/store"
	"example.com/moddex/store/memstore"
	"example.com/moddex/store/sqlstore"
)

type StorageConfig interface {
	Open() (store.Store, error)
}

var storages = map[string]func() StorageConfig{
	"memory":   func() StorageConfig { return new(memstore.Config) },
	"postgres": func() StorageConfig { return new(sqlstore.Postgres) },
	"sqlite3":  func() StorageConfig { return new(sqlstore.SQLite) },
}

func main() {
	st, err := storages[os.Args[1]]().Open()
	if err != nil {
		panic(err)
	}
	server.New(store.WithStatic(st, nil)).Run()
}
