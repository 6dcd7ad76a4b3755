// Command tenancy is a service with the three fleet- and tenant-level
// mistakes: a health probe on the shared pool, pools that add up to more
// than the database allows once replicated, and a FIFO job claim across
// tenants.
package main

import (
	"database/sql"
	"log"
	"net/http"

	"example.com/e2e/tenancy/api"
	"example.com/e2e/tenancy/jobs"
)

func main() {
	orders := open("postgres://orders")
	reports := open("postgres://reports")
	go jobs.Work(reports)
	log.Fatal(http.ListenAndServe(":8080", api.Routes(orders)))
}

func open(dsn string) *sql.DB {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		log.Fatal(err)
	}
	db.SetMaxOpenConns(10)
	return db
}
