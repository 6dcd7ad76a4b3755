// Command configured bounds a constructor's pool through a function of the
// store package (a fact on its parameter), and keeps another store whose
// budget comes from configuration.
package main

import (
	"flag"
	"os"

	"budget/store"
)

func main() { // want `30 replicas × \(10 db\) = 300 connections to database main.*\(and db in store.FromConfig, whose budget is not a constant, is not counted\)`
	max := flag.Int("max", 5, "pool size")
	db, _ := store.OpenRaw(os.Getenv("DATABASE_URL"))
	store.Configure(db)
	_ = store.FromConfig(*max)
}
