// Command api runs replicated (deploy.commands): 10 × 20 = 200 against 100.
package main

import (
	"database/sql"
	"os"
)

func main() { // want `10 replicas × \(20 db\) = 200 connections to database main`
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(20)
	_ = db
}
