// Package otherlimit is a limiter that calls its refusal handler without
// setting Retry-After on one path: the handler must set it.
package otherlimit

import "net/http"

type Limiter struct{ onRefusal http.HandlerFunc }

func New(onRefusal http.HandlerFunc) *Limiter { return &Limiter{onRefusal: onRefusal} }

func (l *Limiter) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("X-Over") {
		case "window":
			w.Header().Set("Retry-After", "1")
			l.onRefusal(w, r)
		case "burst":
			l.onRefusal(w, r) // no header on this path
		default:
			next.ServeHTTP(w, r)
		}
	})
}
