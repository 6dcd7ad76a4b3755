// Package errhelper answers HTTP requests for the errors its callers pass
// it, choosing the status from the error, as a service's errutil.HTTPError.
package errhelper

import (
	"errors"
	"net/http"
)

// ErrQueueFull is what a per-key lock returns to the waiter over its queue.
var ErrQueueFull = errors.New("queue full")

// ErrBusy is what a worker pool returns when it is saturated.
var ErrBusy = errors.New("busy")

// ErrNotFound is an ordinary lookup failure.
var ErrNotFound = errors.New("not found")

// LimitError is a shed by its type.
type LimitError struct{ Key string }

func (e *LimitError) Error() string { return "limit reached for " + e.Key }

// Lock refuses the waiter over the queue.
func Lock(key string, waiting int) error {
	if waiting > 100 {
		return ErrQueueFull
	}
	return nil
}

// mapDBError maps a driver error to the service's own; the identities it
// does not know pass through.
func mapDBError(err error) error { return err }

// ---- positives: the shed is decided here, by the error's identity ----

// HTTPError writes 429 only for ErrQueueFull: reported once, here.
func HTTPError(w http.ResponseWriter, err error) bool {
	if err == nil {
		return false
	}
	err = mapDBError(err)
	switch {
	case errors.Is(err, ErrQueueFull):
		http.Error(w, "too many concurrent requests", http.StatusTooManyRequests) // want `ERR_MISSING_RETRY_AFTER: HTTPError writes 429 Too Many Requests when its error is errhelper.ErrQueueFull, on a path where Retry-After was not set`
	case errors.Is(err, ErrNotFound):
		http.Error(w, "not found", http.StatusNotFound)
	default:
		http.Error(w, "internal error", http.StatusInternalServerError)
	}
	return true
}

// WriteErr compares the error with a sentinel and tests its type.
func WriteErr(w http.ResponseWriter, err error) {
	if err == ErrBusy {
		w.WriteHeader(http.StatusServiceUnavailable) // want `WriteErr writes 503 Service Unavailable when its error is errhelper.ErrBusy`
		return
	}
	var limit *LimitError
	if errors.As(err, &limit) {
		w.WriteHeader(http.StatusTooManyRequests) // want `WriteErr writes 429 Too Many Requests when its error is a \*errhelper.LimitError`
		return
	}
	w.WriteHeader(http.StatusInternalServerError)
}

// StatusOf chooses the status in a variable and writes it once.
func StatusOf(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	switch err.(type) {
	case *LimitError:
		status = http.StatusTooManyRequests
	}
	w.WriteHeader(status) // want `StatusOf writes 429 Too Many Requests when its error is a \*errhelper.LimitError`
}

// ---- traps ----

// statusChosenByErrorIdentityWithHeader sets Retry-After beside the shed.
func statusChosenByErrorIdentityWithHeader(w http.ResponseWriter, err error) { // want statusChosenByErrorIdentityWithHeader:"setsRetryAfter"
	if errors.Is(err, ErrQueueFull) {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		return
	}
	w.WriteHeader(http.StatusBadRequest)
}

// ---- not chosen by the error: the calls decide (facts) ----

// Overloaded writes a 503 of its own whatever it is passed: each call is
// reported.
func Overloaded(w http.ResponseWriter, err error) { // want Overloaded:"writesStatus\\(503 Service Unavailable\\)"
	if errors.Is(err, ErrNotFound) {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	w.WriteHeader(http.StatusServiceUnavailable)
}
