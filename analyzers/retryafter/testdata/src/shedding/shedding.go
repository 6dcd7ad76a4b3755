// Package shedding holds response helpers that handlers in other packages call.
package shedding

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// SetRetryAfter sets Retry-After in whole seconds.
func SetRetryAfter(w http.ResponseWriter, d time.Duration) { // want SetRetryAfter:"setsRetryAfter"
	w.Header().Set("retry-after", strconv.Itoa(int(d.Seconds())))
}

// Unavailable sets Retry-After, then writes 503: callers need nothing else.
func Unavailable(w http.ResponseWriter, msg string) { // want Unavailable:"setsRetryAfter"
	w.Header()["Retry-After"] = []string{"5"}
	http.Error(w, msg, http.StatusServiceUnavailable)
}

// WriteJSON writes the status it is passed.
func WriteJSON(w http.ResponseWriter, status int, body any) { // want WriteJSON:"writesStatus\\(param 1\\)"
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(body)
}

// TooMany writes 429 and nothing else.
func TooMany(w http.ResponseWriter) { // want TooMany:"writesStatus\\(429 Too Many Requests\\)"
	w.WriteHeader(http.StatusTooManyRequests)
}

// WithRetry writes the status it is passed, with Retry-After when shedding.
func WithRetry(w http.ResponseWriter, status int) { // want WithRetry:"setsRetryAfter" WithRetry:"writesStatus\\(param 1\\)"
	if status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "5")
	}
	w.WriteHeader(status)
}
