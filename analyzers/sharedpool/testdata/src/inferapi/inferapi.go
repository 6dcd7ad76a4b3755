// Package inferapi registers handlers and imports the workers, so it sees // want package:`lanes\(\(\*inferapi\.handlers\)\.search@interactive\)`
// both classes reach the store's pool; it creates no pool and is not main,
// so it leaves the report to the package that wires the program.
package inferapi

import (
	"net/http"

	"inferstore"
	"inferworker"
)

type handlers struct{ st *inferstore.Store }

func (h *handlers) search(w http.ResponseWriter, r *http.Request) { h.st.Search() }

func Routes(mux *http.ServeMux, st *inferstore.Store) {
	mux.HandleFunc("/search", (&handlers{st: st}).search)
}

// Refresh starts the workers on demand.
func Refresh(st *inferstore.Store) { inferworker.Pool(st, make(chan int)) } // want Refresh:`reaches\(inferstore\.Store\.db\(no lane\)\)`
