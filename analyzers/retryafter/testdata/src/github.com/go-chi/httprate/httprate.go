// Package httprate is a stand-in for github.com/go-chi/httprate: on a
// refusal the limiter sets Retry-After and then calls the handler its user
// gave it with WithLimitHandler.
package httprate

import (
	"net/http"
	"strconv"
	"time"
)

type Option func(rl *rateLimiter)

type rateLimiter struct {
	window         time.Duration
	onRequestLimit http.HandlerFunc
}

func WithLimitHandler(h http.HandlerFunc) Option { // want WithLimitHandler:`handsAfterRetryAfter\[0\]`
	return func(rl *rateLimiter) {
		rl.onRequestLimit = h
	}
}

// SetLimitHandler stores the handler itself, converted.
func (rl *rateLimiter) SetLimitHandler(h func(http.ResponseWriter, *http.Request)) { // want SetLimitHandler:`handsAfterRetryAfter\[0\]`
	rl.onRequestLimit = http.HandlerFunc(h)
}

func Limit(n int, window time.Duration, opts ...Option) func(http.Handler) http.Handler {
	rl := &rateLimiter{window: window}
	for _, o := range opts {
		o(rl)
	}
	return rl.handler
}

func (rl *rateLimiter) handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Over") != "" {
			w.Header().Set("Retry-After", strconv.Itoa(int(rl.window.Seconds())))
			rl.onRequestLimit(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
