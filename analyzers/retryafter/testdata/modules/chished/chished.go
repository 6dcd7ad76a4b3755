// Package chished: chi's throttling middlewares, which answer 429 with
// Retry-After only when given a RetryAfterFn.
package chished

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// ---- positives ----

func routes(r chi.Router, h http.HandlerFunc) {
	r.With(middleware.ThrottleBacklog(2, 100, time.Minute)).Get("/cover", h)            // want `routes registers ThrottleBacklog, whose default RetryAfterFn answers 429 Too Many Requests without Retry-After; use middleware.ThrottleWithOpts with a RetryAfterFn`
	r.With(middleware.Throttle(10)).Get("/img", h)                                      // want `routes registers Throttle`
	r.With(middleware.ThrottleWithOpts(middleware.ThrottleOpts{Limit: 5})).Get("/a", h) // want `routes registers ThrottleWithOpts`
}

// ---- traps ----

// throttleWithRetryAfterFn: the options say when to come back.
func throttleWithRetryAfterFn(r chi.Router, h http.HandlerFunc) {
	r.With(middleware.ThrottleWithOpts(middleware.ThrottleOpts{
		Limit:        5,
		RetryAfterFn: func(ctxDone bool) time.Duration { return 5 * time.Second },
	})).Get("/b", h)
}

// throttleWithOptsFromCaller: options built elsewhere get the benefit of
// the doubt.
func throttleWithOptsFromCaller(r chi.Router, h http.HandlerFunc, opts middleware.ThrottleOpts) {
	r.With(middleware.ThrottleWithOpts(opts)).Get("/c", h)
}

// otherMiddleware: a chi middleware that does not shed.
func otherMiddleware(r chi.Router, h http.HandlerFunc) {
	r.With(middleware.RequestID).Get("/d", h)
}
