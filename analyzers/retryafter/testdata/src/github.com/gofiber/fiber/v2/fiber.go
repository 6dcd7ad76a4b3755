// Package fiber is the part of gofiber/fiber v2 the tests use.
package fiber

import "github.com/valyala/fasthttp"

type Ctx struct{ fasthttp *fasthttp.RequestCtx }

func (c *Ctx) Context() *fasthttp.RequestCtx         { return c.fasthttp }
func (c *Ctx) Status(status int) *Ctx                { return c }
func (c *Ctx) SendStatus(status int) error           { return nil }
func (c *Ctx) SendString(body string) error          { return nil }
func (c *Ctx) Set(key, val string)                   {}
func (c *Ctx) Append(field string, values ...string) {}
