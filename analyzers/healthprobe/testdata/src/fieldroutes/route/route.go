// Package route is a project's own route builder (authn-server's
// lib/route): the path and the handler go to different calls of a chain.
package route

import "net/http"

type Route struct{ Method, Path string }

type SecuredRoute struct{ *Route }

type HandledRoute struct {
	*SecuredRoute
	Handler http.Handler
}

func Get(path string) *Route { return &Route{Method: "GET", Path: path} }

func (r Route) Unsecured() *SecuredRoute { return &SecuredRoute{&r} }

func (r *SecuredRoute) Handle(h http.Handler) *HandledRoute { return &HandledRoute{r, h} }
