package chi

import "net/http"

type Router interface {
	http.Handler
	Get(pattern string, h http.HandlerFunc)
	Handle(pattern string, h http.Handler)
	Route(pattern string, fn func(r Router)) Router
	Group(fn func(r Router)) Router
}

type Mux struct{}

func NewRouter() *Mux                                           { return &Mux{} }
func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {}
func (m *Mux) Get(pattern string, h http.HandlerFunc)           {}
func (m *Mux) Handle(pattern string, h http.Handler)            {}
func (m *Mux) Route(pattern string, fn func(r Router)) Router   { return nil }
func (m *Mux) Group(fn func(r Router)) Router                   { return nil }
