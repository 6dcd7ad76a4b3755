// Package route is a project's own fluent route builder: no router of
// bhlint's tables, so the handlers it is handed are found by their shape.
package route

import "net/http"

type Route struct{ verb, path string }

type Handled struct {
	Route
	H http.Handler
}

func Get(path string) *Route { return &Route{verb: "GET", path: path} }

func (r *Route) Handle(h http.Handler) *Handled { return &Handled{Route: *r, H: h} }

func Attach(mux *http.ServeMux, routes []*Handled) {
	for _, r := range routes {
		mux.Handle(r.verb+" "+r.path, r.H)
	}
}
