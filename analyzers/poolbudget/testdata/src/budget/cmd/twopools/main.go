// Command twopools opens two pools of 20: 30 replicas × 40 = 1200 against 97.
package main

import (
	"database/sql"
	"os"
)

func main() { // want `ERR_POOL_BUDGETS_EXCEED_DATABASE: 30 replicas × \(20 ordersDB \+ 20 reportsDB\) = 1200 connections to database main, which allows 97 \(max-connections 100 − reserved 3\); per replica budget must total at most 3`
	ordersDB, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	ordersDB.SetMaxOpenConns(20)
	reportsDB, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	reportsDB.SetMaxOpenConns(20)
	serve(ordersDB, reportsDB)
}

func serve(a, b *sql.DB) {}
