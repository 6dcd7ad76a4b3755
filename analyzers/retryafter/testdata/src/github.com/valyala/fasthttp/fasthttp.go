// Package fasthttp is the part of valyala/fasthttp the tests use.
package fasthttp

type ResponseHeader struct{ h map[string]string }

func (h *ResponseHeader) Set(key, value string) {}
func (h *ResponseHeader) Add(key, value string) {}

type Response struct{ Header ResponseHeader }

func (r *Response) SetStatusCode(code int) {}

type Request struct{}

// RequestCtx is the server's context of one request.
type RequestCtx struct {
	Request  Request
	Response Response
}

func (ctx *RequestCtx) SetStatusCode(code int)     {}
func (ctx *RequestCtx) Error(msg string, code int) {}
func (ctx *RequestCtx) SetBodyString(body string)  {}
