// Command svc connects to two databases, told apart by the environment
// variable each connection string comes from; no deploy.replicas: one
// process.
package main

import (
	"database/sql"
	"os"
)

func main() { // want `1 replica × \(60 ordersDB \+ 50 audit\) = 110 connections to database orders, which allows 100 \(max-connections 100 − reserved 0\); per replica budget must total at most 100`
	url := os.Getenv("ORDERS_URL")
	ordersDB, _ := sql.Open("pgx", url)
	ordersDB.SetMaxOpenConns(60)
	audit := open(os.Getenv("ORDERS_URL"), 50)
	reportsDB := open(os.Getenv("REPORTS_URL"), 40) // 40 ≤ 50
	cache := open(os.Getenv("CACHE_URL"), 500)      // no declared database: not counted
	_, _, _ = audit, reportsDB, cache
}

func open(dsn string, n int) *sql.DB {
	db, _ := sql.Open("pgx", dsn)
	db.SetMaxOpenConns(n)
	return db
}
