// Package gin stubs github.com/gin-gonic/gin: the handler's context
// carries the request and its response writer.
package gin

import "net/http"

type ResponseWriter interface {
	http.ResponseWriter
	Status() int
}

type Context struct {
	Request *http.Request
	Writer  ResponseWriter
}

func (c *Context) PostForm(key string) string { return c.Request.PostFormValue(key) }
