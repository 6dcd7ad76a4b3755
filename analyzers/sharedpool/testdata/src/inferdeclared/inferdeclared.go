// Package inferdeclared declares its lanes: inference stays out of it. // want package:`lanes\(inferdeclared\.page@web\)`
package inferdeclared

import (
	"database/sql"
	"net/http"
	"time"
)

var db *sql.DB

//bhlint:lane web
func page(w http.ResponseWriter, r *http.Request) { db.Query("SELECT 1") }

func sweep() {
	for {
		time.Sleep(time.Minute)
		db.Exec("DELETE FROM t")
	}
}

func Main() { // want Main:`reaches\(inferdeclared\.db\(no lane\)\)` Main:`creates\(inferdeclared\.db\)`
	db, _ = sql.Open("postgres", "app")
	http.HandleFunc("/", page)
	go sweep()
}
