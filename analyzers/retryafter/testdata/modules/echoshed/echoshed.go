// Package echoshed: handlers that return error values carrying 429 or 503,
// written by the framework's error handler.
package echoshed

import (
	"net/http"

	"github.com/labstack/echo/v4"

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
func guided(c echo.Context, full bool) error {
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
