// Package infercapturedwire wires the program. // want package:`lanes\(infercapturedwire\.users@interactive, infercapturedwire\.refresh@background\)`
// The finding is at the call of the constructor that opens the pool.
package infercapturedwire

import (
	"net/http"
	"time"

	"infercaptured"
)

var store *infercaptured.Database

func users(w http.ResponseWriter, r *http.Request) { store.List() }

func refresh() {
	for range time.Tick(time.Minute) {
		store.List()
	}
}

func Main() { // want Main:`creates\(infercaptured\.Database\.DB\)` Main:`reaches\(infercaptured\.Database\.DB\(no lane\)\)`
	store, _ = infercaptured.New() // want `infercaptured.Database.DB, a database pool created once, serves both interactive and background work`
	http.HandleFunc("/users", users)
	go refresh()
}
