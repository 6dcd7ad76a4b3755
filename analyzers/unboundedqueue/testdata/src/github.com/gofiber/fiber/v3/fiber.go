// Package fiber is the part of gofiber/fiber v3 the tests use.
package fiber

import "github.com/valyala/fasthttp"

// Ctx is v3's handler context, an interface around fasthttp's.
type Ctx interface {
	RequestCtx() *fasthttp.RequestCtx
	BodyRaw() []byte
}

type Handler = func(Ctx) error
