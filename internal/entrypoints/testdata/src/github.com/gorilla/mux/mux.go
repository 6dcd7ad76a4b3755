package mux

import "net/http"

type Router struct{}
type Route struct{}

func NewRouter() *Router                                             { return &Router{} }
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {}
func (r *Router) HandleFunc(path string, f func(http.ResponseWriter, *http.Request)) *Route {
	return &Route{}
}
func (r *Route) Methods(m ...string) *Route { return r }
