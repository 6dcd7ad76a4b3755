// Package hugehandler has functions over the budget the test sets
// (-budget=40): a handler is reported as skipped, visibly; a function that
// is not a handler is not worth a word.
package hugehandler

import "net/http"

func shedInHugeHandler(w http.ResponseWriter, r *http.Request) { // want `skipped: function shedInHugeHandler too large \(\d+ instructions > budget 40\)`
	total := 0
	for i := range r.URL.Path {
		total += int(r.URL.Path[i]) * 2
		total -= int(r.URL.Path[i]) / 3
		total ^= int(r.URL.Path[i]) << 1
		if total > 1000 {
			total %= 997
		}
	}
	if total > 500 {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func hugeNotAHandler(s string) int {
	total := 0
	for i := range s {
		total += int(s[i]) * 2
		total -= int(s[i]) / 3
		total ^= int(s[i]) << 1
		if total > 1000 {
			total %= 997
		}
		total += int(s[i]) * 2
		total -= int(s[i]) / 3
		total ^= int(s[i]) << 1
		if total > 1000 {
			total %= 997
		}
	}
	return total
}

func shedInSmallHandler(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusServiceUnavailable) // want `ERR_MISSING_RETRY_AFTER: handler shedInSmallHandler writes 503`
}
