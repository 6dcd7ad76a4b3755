package echo

type Context interface {
	String(code int, s string) error
}
type HandlerFunc func(c Context) error
type MiddlewareFunc func(next HandlerFunc) HandlerFunc
type Echo struct{}
type Group struct{}

func New() *Echo                                                      { return &Echo{} }
func (e *Echo) GET(path string, h HandlerFunc, m ...MiddlewareFunc)   {}
func (e *Echo) Group(prefix string, m ...MiddlewareFunc) *Group       { return &Group{} }
func (g *Group) POST(path string, h HandlerFunc, m ...MiddlewareFunc) {}
