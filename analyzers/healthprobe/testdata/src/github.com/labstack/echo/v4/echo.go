// Package echo is a stub of labstack/echo v4's routing.
package echo

type Context interface {
	String(code int, s string) error
}
type HandlerFunc func(c Context) error
type MiddlewareFunc func(next HandlerFunc) HandlerFunc
type Echo struct{}

func New() *Echo                                                    { return &Echo{} }
func (e *Echo) GET(path string, h HandlerFunc, m ...MiddlewareFunc) {}
