package handlers

import (
	"context"
	"net/http"
	"time"
)

// Routes wraps the API in net/http's TimeoutHandler (alertmanager's
// --web.timeout): every request its handler has not answered in time gets
// TimeoutHandler's own 503, which carries no Retry-After and cannot.
func Routes(api http.Handler) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("/api/", http.TimeoutHandler(api, 30*time.Second, "timeout")) // want `ERR_MISSING_RETRY_AFTER: Routes registers TimeoutHandler, which answers 503 Service Unavailable \(to each request its handler has not answered in time\) without Retry-After`
	mux.Handle("/bounded/", withDeadline(api, 30*time.Second))
	return mux
}

// withDeadline is the look-alike: a deadline on the request's context, and
// the handler answers for itself.
func withDeadline(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}
