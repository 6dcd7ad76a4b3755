// Package fibershed has fiber and fasthttp handlers that shed load, after
// versitygw's rate limiter, and look-alikes that say when to come back.
package fibershed

import (
	"net/http"

	fiberv2 "github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"

	"s3err"
)

type semaphore struct{ n int }

func (s *semaphore) TryAcquire() bool { return s.n > 0 }

// rateLimiter answers 503 Slow Down when no slot is free, with no
// Retry-After.
func rateLimiter(sem *semaphore) fiber.Handler {
	return func(ctx fiber.Ctx) error {
		if !sem.TryAcquire() {
			ctx.Status(http.StatusServiceUnavailable) // want `ERR_MISSING_RETRY_AFTER: .* writes 503 Service Unavailable on a path where Retry-After was not set; set c.Set\("Retry-After", "5"\)`
			return ctx.Send([]byte("<Error><Code>SlowDown</Code></Error>"))
		}
		return ctx.Next()
	}
}

// busyV2 is a fiber v2 handler refusing with 429.
func busyV2(c *fiberv2.Ctx) error {
	return c.SendStatus(http.StatusTooManyRequests) // want `writes 429 Too Many Requests`
}

// rawBusy is a fasthttp handler refusing with 503.
func rawBusy(ctx *fasthttp.RequestCtx) {
	ctx.Error("busy", http.StatusServiceUnavailable) // want `writes 503 Service Unavailable`
}

// ---- traps: must stay silent ----

func rateLimiterWithHeader(sem *semaphore) fiber.Handler {
	return func(ctx fiber.Ctx) error {
		if !sem.TryAcquire() {
			ctx.Set("Retry-After", "1")
			return ctx.SendStatus(http.StatusServiceUnavailable)
		}
		return ctx.Next()
	}
}

// rateLimiterRawHeader sets it on fasthttp's response header.
func rateLimiterRawHeader(sem *semaphore) fiber.Handler {
	return func(ctx fiber.Ctx) error {
		if !sem.TryAcquire() {
			ctx.Response().Header.Set("Retry-After", "1")
			return ctx.SendStatus(http.StatusTooManyRequests)
		}
		return ctx.Next()
	}
}

func busyV2WithHeader(c *fiberv2.Ctx) error { // want busyV2WithHeader:"setsRetryAfter"
	c.Append("Retry-After", "5")
	return c.SendStatus(http.StatusTooManyRequests)
}

func rawBusyWithHeader(ctx *fasthttp.RequestCtx) { // want rawBusyWithHeader:"setsRetryAfter"
	ctx.Response.Header.Set("Retry-After", "5")
	ctx.SetStatusCode(http.StatusServiceUnavailable)
}

// notFound writes another status.
func notFound(c *fiberv2.Ctx) error {
	return c.SendStatus(http.StatusNotFound)
}

// ---- statuses read out of the service's error table ----

// tableLimiter writes the status of ErrSlowDown's entry, a 503.
func tableLimiter(sem *semaphore) fiber.Handler {
	return func(ctx fiber.Ctx) error {
		if !sem.TryAcquire() {
			err := s3err.GetAPIError(s3err.ErrSlowDown)
			ctx.Status(err.HTTPStatusCode) // want `writes 503 Service Unavailable`
			return ctx.Send([]byte(err.Error()))
		}
		return ctx.Next()
	}
}

func tableBusy(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(s3err.StatusOf("busy")) // want `writes 503 Service Unavailable`
}

// Traps: another entry (a 404), the entry with the header set, and a key
// chosen at run time.
func tableNotFound(ctx fiber.Ctx) error {
	return ctx.SendStatus(s3err.GetAPIError(s3err.ErrNoSuchKey).HTTPStatusCode)
}

func tableLimiterWithHeader(ctx fiber.Ctx) error { // want tableLimiterWithHeader:"setsRetryAfter"
	ctx.Set("Retry-After", "5")
	return ctx.SendStatus(s3err.GetAPIError(s3err.ErrTooMany).HTTPStatusCode)
}

func tableByCode(ctx fiber.Ctx, code s3err.ErrorCode) error {
	return ctx.SendStatus(s3err.GetAPIError(code).HTTPStatusCode)
}
