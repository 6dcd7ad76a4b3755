// Package router mirrors the API of pocketbase's tools/router (v0.28): a
// generic router whose routes are func(e T) error values, run through
// net/http by a handler the router builds (so no static call reaches them).
package router

import "net/http"

type Resolver interface{ Next() error }

type Route[T Resolver] struct {
	Action func(e T) error
}

func (route *Route[T]) BindFunc(middlewareFuncs ...func(e T) error) *Route[T] { return route }

type RouterGroup[T Resolver] struct {
	children []any
}

func (group *RouterGroup[T]) Group(prefix string) *RouterGroup[T] { return &RouterGroup[T]{} }
func (group *RouterGroup[T]) BindFunc(middlewareFuncs ...func(e T) error) *RouterGroup[T] {
	return group
}
func (group *RouterGroup[T]) Route(method string, path string, action func(e T) error) *Route[T] {
	return &Route[T]{Action: action}
}
func (group *RouterGroup[T]) Any(path string, action func(e T) error) *Route[T]  { return nil }
func (group *RouterGroup[T]) GET(path string, action func(e T) error) *Route[T]  { return nil }
func (group *RouterGroup[T]) POST(path string, action func(e T) error) *Route[T] { return nil }
func (group *RouterGroup[T]) HasRoute(method string, path string) bool           { return false }

type Router[T Resolver] struct {
	*RouterGroup[T]
}

func NewRouter[T Resolver]() *Router[T] { return &Router[T]{RouterGroup: &RouterGroup[T]{}} }

// BuildMux registers the router's own dispatcher with net/http: the
// framework's, not a handler of the program (no diagnostic here).
func (r *Router[T]) BuildMux() (http.Handler, error) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, req *http.Request) {})
	return mux, nil
}
