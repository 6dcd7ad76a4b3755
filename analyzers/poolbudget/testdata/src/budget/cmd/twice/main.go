// Command twice calls one constructor twice: each call opens a pool, and
// each counts, with the budget each call passes.
package main

import (
	"os"

	"budget/store"
)

func main() { // want `30 replicas × \(2 orders \+ 2 reports\) = 120 connections to database main`
	orders, _ := store.Open(os.Getenv("DATABASE_URL"), 2)
	reports, _ := store.Open(os.Getenv("DATABASE_URL"), 2)
	_, _ = orders, reports
}
