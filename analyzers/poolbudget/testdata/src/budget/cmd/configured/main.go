// Command configured bounds a constructor's pool through a function of the
// store package (a fact on its parameter), takes budgets from flags (their
// constant defaults count, named as assumed) and one from the environment
// (not a constant: not counted).
package main

import (
	"flag"
	"os"
	"strconv"

	"budget/store"
)

var extra = flag.Int("extra", 2, "extra pool size")

func main() { // want `30 replicas × \(10 db \+ 5 db in store.FromConfig \(the default of flag -max\) \+ 2 reports \(the default of flag -extra\) \+ 3 jobsDB \(the default of flag -jobs\)\) = 600 connections to database main.*\(and db in store.FromConfig, whose budget is not a constant, is not counted\)`
	max := flag.Int("max", 5, "pool size")
	var jobs int
	flag.IntVar(&jobs, "jobs", 3, "job pool size")
	flag.Parse()
	db, _ := store.OpenRaw(os.Getenv("DATABASE_URL"))
	store.Configure(db)
	_ = store.FromConfig(*max)
	reports, _ := store.Open(os.Getenv("DATABASE_URL"), *extra)
	jobsDB, _ := store.Open(os.Getenv("DATABASE_URL"), jobs)
	n, _ := strconv.Atoi(os.Getenv("POOL_SIZE"))
	_ = store.FromConfig(n)
	_, _ = reports, jobsDB
}
