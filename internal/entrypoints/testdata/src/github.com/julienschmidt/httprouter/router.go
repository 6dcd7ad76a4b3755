package httprouter

import "net/http"

type Params []string
type Handle func(http.ResponseWriter, *http.Request, Params)
type Router struct{}

func New() *Router                               { return &Router{} }
func (r *Router) GET(path string, handle Handle) {}
