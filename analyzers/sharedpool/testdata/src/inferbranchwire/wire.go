// Package inferbranchwire wires a program whose one pool a method of // want package:`lanes\(inferbranchwire\.users@interactive, inferbranchwire\.refresh@background\)`
// another package opens on one of two branches: the finding is at the
// one call of it.
package inferbranchwire

import (
	"net/http"
	"time"

	"inferbranchstore"
)

var store = inferbranchstore.New()

func users(w http.ResponseWriter, r *http.Request) { store.Query() }

func refresh() {
	for range time.Tick(time.Minute) {
		store.Query()
	}
}

func Main(driver string) { // want Main:`creates\(inferbranchstore\.DB\.handler\)` Main:`reaches\(inferbranchstore\.DB\.handler\(no lane\)\)`
	store.Open(driver) // want `inferbranchstore.DB.handler, a database pool created once, serves both interactive and background work`
	http.HandleFunc("/users", users)
	go refresh()
}
