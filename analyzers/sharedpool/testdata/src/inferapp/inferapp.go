// Package inferapp wires the store, the handlers and the workers of other // want package:`lanes\(\(\*inferapp\.handlers\)\.feeds@interactive\)`
// packages: it creates the pool, so it reports inferstore.Store.db once
// (the query builder's copy of it is the same pool).
package inferapp

import (
	"database/sql"
	"net/http"

	"inferapi"
	"inferstore"
	"inferworker"
)

type handlers struct{ st *inferstore.Store }

func (h *handlers) feeds(w http.ResponseWriter, r *http.Request) { h.st.Feeds() }

func Main() { // want Main:`creates\(inferstore\.Store\.db\)` Main:`reaches\(inferstore\.Store\.db\(no lane\)\)`
	db, _ := sql.Open("postgres", "app") // want `inferstore.Store.db, a database pool created once, serves both interactive and background work`
	st := inferstore.New(db)
	mux := http.NewServeMux()
	mux.HandleFunc("/feeds", (&handlers{st: st}).feeds)
	inferapi.Routes(mux, st)
	inferworker.Pool(st, make(chan int))
}
