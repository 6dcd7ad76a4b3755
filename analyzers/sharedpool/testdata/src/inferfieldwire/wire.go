// Package inferfieldwire wires a program whose pool a function of another // want package:`lanes\(inferfieldwire\.users@interactive, inferfieldwire\.refresh@background\)`
// package opens into a field: the finding is at the one call of it.
package inferfieldwire

import (
	"net/http"
	"time"

	"inferfieldstore"
)

func users(w http.ResponseWriter, r *http.Request) { inferfieldstore.Container.DB.Query() }

func refresh() {
	for range time.Tick(time.Minute) {
		inferfieldstore.Container.DB.Query()
	}
}

func Main() { // want Main:`creates\(inferfieldstore\.Database\.engine\)` Main:`reaches\(inferfieldstore\.Database\.engine\(no lane\)\)`
	inferfieldstore.Initialize() // want `inferfieldstore.Database.engine, a database pool created once, serves both interactive and background work`
	http.HandleFunc("/users", users)
	go refresh()
}
