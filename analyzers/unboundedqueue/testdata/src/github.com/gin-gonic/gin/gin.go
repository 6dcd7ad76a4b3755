// Package gin stubs github.com/gin-gonic/gin: the handler's context
// carries the request and its response writer.
package gin

import (
	"net/http"
	"time"
)

type ResponseWriter interface {
	http.ResponseWriter
	Status() int
}

type Context struct {
	Request *http.Request
	Writer  ResponseWriter
}

func (c *Context) PostForm(key string) string { return c.Request.PostFormValue(key) }

// The context.Context methods: gin's Context is one.
func (c *Context) Deadline() (deadline time.Time, ok bool) { return c.Request.Context().Deadline() }
func (c *Context) Done() <-chan struct{}                   { return c.Request.Context().Done() }
func (c *Context) Err() error                              { return c.Request.Context().Err() }
func (c *Context) Value(key any) any                       { return c.Request.Context().Value(key) }
