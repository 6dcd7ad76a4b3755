// Package fixes checks the suggested fix: Retry-After set just before a
// constant 429/503 write, and no fix where the status is chosen at run time.
package fixes

import "net/http"

func shedTax(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusServiceUnavailable) // want `handler shedTax writes 503 Service Unavailable on a path where Retry-After was not set`
}

func tooMany(rw http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("burst") != "" {
		http.Error(rw, "slow down", http.StatusTooManyRequests) // want `handler tooMany writes 429 Too Many Requests`
		return
	}
	rw.WriteHeader(http.StatusOK)
}

func chosenAtRunTime(w http.ResponseWriter, r *http.Request) {
	status := http.StatusOK
	if r.Header.Get("X-Overloaded") != "" {
		status = http.StatusServiceUnavailable
	}
	w.WriteHeader(status) // want `handler chosenAtRunTime writes 503`
}
