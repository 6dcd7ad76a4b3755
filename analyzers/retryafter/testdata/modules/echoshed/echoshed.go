// Package echoshed: handlers that return error values carrying 429 or 503,
// written by the framework's error handler.
package echoshed

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"example.com/shedmod/apierr"
)

type limiter struct{ full bool }

func (l *limiter) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if l.full {
			return echo.NewHTTPError(http.StatusTooManyRequests, "slow down") // want `the function literal in \(\*echoshed.limiter\).Middleware builds an error carrying HTTP 429 Too Many Requests, returned without retry guidance; set the Retry-After header`
		}
		return next(c)
	}
}

func drain(c echo.Context) error {
	return &echo.HTTPError{Code: http.StatusServiceUnavailable, Message: "draining"} // want `drain builds an error carrying HTTP 503 Service Unavailable`
}

func otp(c echo.Context, tries int) error {
	if tries > 5 {
		return apierr.NewTooManyRequestsError("try later") // want `otp builds an error carrying HTTP 429 Too Many Requests`
	}
	return nil
}

// ---- traps ----

// Retry-After set on the response before the error is returned.
func guided(c echo.Context, full bool) error { // want guided:"setsRetryAfter"
	if full {
		c.Response().Header().Set("Retry-After", "5")
		return echo.NewHTTPError(http.StatusTooManyRequests)
	}
	return nil
}

// Other statuses do not shed.
func bad(c echo.Context) error {
	return apierr.NewBadRequestError("bad")
}

// A client reading a status from an outbound call builds nothing.
func client(c echo.Context) error {
	resp, err := http.Get("http://127.0.0.1:1/")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests {
		return echo.NewHTTPError(resp.StatusCode)
	}
	return nil
}

// ---- responses written through echo's Context ----

func busyJSON(c echo.Context, full bool) error {
	if full {
		return c.JSON(http.StatusTooManyRequests, map[string]string{"error": "slow down"}) // want `handler busyJSON writes 429 Too Many Requests on a path where Retry-After was not set; set c.Response\(\).Header\(\).Set\("Retry-After", "5"\) before writing it`
	}
	return c.JSON(http.StatusOK, nil)
}

func busyNoContent(c echo.Context) error {
	return c.NoContent(http.StatusServiceUnavailable) // want `handler busyNoContent writes 503 Service Unavailable`
}

func busyString(c echo.Context) error {
	c.Response().WriteHeader(http.StatusServiceUnavailable) // want `handler busyString writes 503`
	return c.String(429, "busy")                            // want `handler busyString writes 429`
}

// A status chosen on one branch together with the header.
func chosen(c echo.Context, n int) error { // want chosen:"setsRetryAfter"
	status := http.StatusOK
	if n > 10 {
		c.Response().Header().Set("Retry-After", "5")
		status = http.StatusServiceUnavailable
	}
	return c.NoContent(status)
}

// The header set, then the status written: silent.
func guidedJSON(c echo.Context) error { // want guidedJSON:"setsRetryAfter"
	c.Response().Header().Add("Retry-After", "5")
	return c.JSON(http.StatusTooManyRequests, nil)
}

// ---- echo's rate limiter ----

func store() middleware.RateLimiterStore {
	return middleware.NewRateLimiterMemoryStore(rate.Limit(10))
}

func limiters(e *echo.Echo) {
	e.Use(middleware.RateLimiter(store()))                                                // want `limiters registers RateLimiter, whose default DenyHandler answers 429 Too Many Requests \(middleware.ErrRateLimitExceeded\) without Retry-After`
	e.Use(middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{Store: store()})) // want `limiters registers RateLimiterWithConfig, whose default DenyHandler`
	cfg := middleware.DefaultRateLimiterConfig
	cfg.Store = store()
	e.Use(middleware.RateLimiterWithConfig(cfg)) // want `limiters registers RateLimiterWithConfig`

	// A deny handler of the user's is judged as a handler.
	e.Use(middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store: store(),
		DenyHandler: func(c echo.Context, id string, err error) error {
			return c.JSON(http.StatusTooManyRequests, nil) // want `the handler literal in limiters writes 429`
		},
	}))
	e.Use(middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store: store(),
		DenyHandler: func(c echo.Context, id string, err error) error {
			return echo.NewHTTPError(http.StatusTooManyRequests) // want `the function literal in limiters builds an error carrying HTTP 429`
		},
	}))
}

// ---- traps ----

// A deny handler that sets Retry-After.
func guidedLimiter(e *echo.Echo) {
	e.Use(middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Store: store(),
		DenyHandler: func(c echo.Context, id string, err error) error {
			c.Response().Header().Set("Retry-After", time.Second.String())
			return middleware.ErrRateLimitExceeded
		},
	}))
}

// The default configuration copied, with a deny handler of the user's.
func copiedLimiter(e *echo.Echo) {
	cfg := middleware.DefaultRateLimiterConfig
	cfg.Store = store()
	cfg.DenyHandler = denyWithDelay
	e.Use(middleware.RateLimiterWithConfig(cfg))
}

func denyWithDelay(c echo.Context, id string, err error) error { // want denyWithDelay:"setsRetryAfter"
	c.Response().Header().Set("Retry-After", "1")
	return middleware.ErrRateLimitExceeded
}

// A configuration built elsewhere is given the benefit of the doubt.
func configured(e *echo.Echo, cfg middleware.RateLimiterConfig) {
	e.Use(middleware.RateLimiterWithConfig(cfg))
}

// Other statuses through echo's Context.
func created(c echo.Context) error {
	return c.JSON(http.StatusCreated, nil)
}

// A probe's 503.
func healthz(c echo.Context) error {
	return c.NoContent(http.StatusServiceUnavailable)
}

// An error handler writes the status the error carries, read from a field:
// the shed is judged where the error is built.
func errorHandler(err error, c echo.Context) {
	code := http.StatusInternalServerError
	if he, ok := err.(*echo.HTTPError); ok {
		code = he.Code
	}
	_ = c.JSON(code, map[string]any{"error": err.Error()})
}

// A literal in a literal is named by the declared function.
func nested(e *echo.Echo) {
	e.GET("/a", func(c echo.Context) error {
		f := func(c echo.Context) error {
			return c.NoContent(http.StatusServiceUnavailable) // want `the handler literal in nested writes 503`
		}
		return f(c)
	})
}

// ---- a project's own context, embedding echo's ----

// Context is the project's request context: echo's, with the service.
type Context struct {
	service any
	echo.Context
}

// lockedOut answers through the embedded echo.Context: the same write.
func lockedOut(c Context, lockout int64) error {
	c.Response().Header().Set("X-Account-Lockout", "1")
	if lockout > 0 {
		return c.NoContent(http.StatusTooManyRequests) // want `handler lockedOut writes 429 Too Many Requests on a path where Retry-After was not set`
	}
	return c.NoContent(http.StatusOK)
}

// guidedLockout sets Retry-After through it first: silent.
func guidedLockout(c *Context, lockout int64) error { // want guidedLockout:"setsRetryAfter"
	if lockout > 0 {
		c.Response().Header().Set("Retry-After", "60")
		return c.NoContent(http.StatusTooManyRequests)
	}
	return nil
}
