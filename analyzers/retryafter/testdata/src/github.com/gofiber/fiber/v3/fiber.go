// Package fiber is the part of gofiber/fiber v3 the tests use.
package fiber

import "github.com/valyala/fasthttp"

// Ctx is v3's handler context, an interface.
type Ctx interface {
	RequestCtx() *fasthttp.RequestCtx
	Response() *fasthttp.Response
	Status(status int) Ctx
	SendStatus(status int) error
	Send(body []byte) error
	Set(key, val string)
	Next() error
}

type Handler = func(Ctx) error
