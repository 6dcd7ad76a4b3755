// Package fasthttp is the part of valyala/fasthttp the tests use.
package fasthttp

type Request struct{ Body []byte }

type Response struct{ status int }

// RequestCtx is the server's context of one incoming request.
type RequestCtx struct {
	Request  Request
	Response Response
}

type Client struct{}

// Do sends req and fills resp: the client's side, no incoming request.
func (c *Client) Do(req *Request, resp *Response) error { return nil }
