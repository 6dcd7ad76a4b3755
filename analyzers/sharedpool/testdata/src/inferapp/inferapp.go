// Package inferapp wires the store, the handlers and the workers of other // want package:`lanes\(\(\*inferapp\.handlers\)\.feeds@interactive\)`
// packages: it is the first to see both classes reach inferstore.Store.db.
package inferapp

import (
	"database/sql"
	"net/http"

	"inferstore"
	"inferworker"
)

type handlers struct{ st *inferstore.Store }

func (h *handlers) feeds(w http.ResponseWriter, r *http.Request) { h.st.Feeds() }

func Main() { // want Main:`reaches\(inferstore\.Store\.db\(no lane\)\)`
	db, _ := sql.Open("postgres", "app") // want `inferstore.Store.db, a database pool created once, serves both interactive and background work`
	st := inferstore.New(db)
	http.HandleFunc("/feeds", (&handlers{st: st}).feeds)
	inferworker.Pool(st, make(chan int))
}
