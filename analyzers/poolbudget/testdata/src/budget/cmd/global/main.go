// Command global keeps its pools in package-level variables, bounded where
// they are set.
package main

import (
	"database/sql"
	"os"

	"budget/store"
)

var cache *sql.DB

func main() { // want `30 replicas × \(1 shared in store.Setup \+ 4 cache\) = 150 connections to database main`
	store.Setup()
	cache, _ = sql.Open("pgx", os.Getenv("DATABASE_URL"))
	cache.SetMaxOpenConns(4)
}
