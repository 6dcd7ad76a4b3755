// Package app gives rate limiters the handlers they run on a refusal.
package app

import (
	"net/http"
	"time"

	"github.com/go-chi/httprate"

	"limithandler/otherlimit"
)

// Routes: httprate set Retry-After before it calls either handler, so
// their 429s carry it.
func Routes() func(http.Handler) http.Handler {
	return httprate.Limit(10, time.Minute,
		httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTooManyRequests)
		}),
		httprate.WithLimitHandler(refused),
	)
}

func refused(w http.ResponseWriter, r *http.Request) {
	http.Error(w, "slow down", http.StatusTooManyRequests)
}

// Other: otherlimit calls its handler on a path with no Retry-After, so
// the handler's 429 is reported.
func Other() *otherlimit.Limiter {
	return otherlimit.New(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTooManyRequests) // want `ERR_MISSING_RETRY_AFTER`
	})
}

// Plain is a handler nobody hands to a limiter: reported as always.
func Plain(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusTooManyRequests) // want `ERR_MISSING_RETRY_AFTER`
}
