package chi

import "net/http"

type Router interface {
	http.Handler
	Get(pattern string, h http.HandlerFunc)
	Handle(pattern string, h http.Handler)
}

type Mux struct{}

func NewRouter() *Mux                                           { return &Mux{} }
func (m *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request) {}
func (m *Mux) Get(pattern string, h http.HandlerFunc)           {}
func (m *Mux) Handle(pattern string, h http.Handler)            {}
