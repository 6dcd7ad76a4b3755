// Package echo is the part of github.com/labstack/echo/v4 the tests use.
package echo

import "net/http"

type Context interface {
	Request() *http.Request
	Response() *Response
	NoContent(code int) error
}

type Response struct {
	Writer http.ResponseWriter
	Status int
}

func (r *Response) Header() http.Header         { return r.Writer.Header() }
func (r *Response) WriteHeader(code int)        { r.Status = code }
func (r *Response) Write(b []byte) (int, error) { return r.Writer.Write(b) }
