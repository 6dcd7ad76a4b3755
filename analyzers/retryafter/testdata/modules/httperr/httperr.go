// Package httperr: error types that say which HTTP status they become
// through a status method, mapped to the response by an error handler
// elsewhere.
package httperr

import "net/http"

// TooManyRequestsError is a 429 by its type.
type TooManyRequestsError struct{ Msg string } // want TooManyRequestsError:"carriesShed\\(HTTP 429 Too Many Requests\\)"

func (e TooManyRequestsError) Error() string { return e.Msg }

func (TooManyRequestsError) StatusCode() int { return http.StatusTooManyRequests }

// StatusError carries its status in an unexported field that its status
// method returns.
type StatusError struct { // want StatusError:"carriesShed\\(field code\\)"
	code int
	msg  string
}

func (e *StatusError) Error() string { return e.msg }

func (e *StatusError) Status() int { return e.code }

// New builds a StatusError with the status it is passed.
func New(code int, msg string) *StatusError { // want New:"shedError\\(code param 0\\)"
	return &StatusError{code: code, msg: msg}
}

// NewTooManyRequestsError is a constructor: its callers are reported.
func NewTooManyRequestsError(msg string) error { // want NewTooManyRequestsError:"shedError\\(HTTP 429 Too Many Requests\\)"
	return &StatusError{code: http.StatusTooManyRequests, msg: msg}
}

// NewOverloaded returns a value whose type is a 429.
func NewOverloaded() error { // want NewOverloaded:"shedError\\(HTTP 429 Too Many Requests\\)"
	return TooManyRequestsError{Msg: "overloaded"}
}

// ---- traps ----

// NotFoundError's status method returns a status that is not a shed.
type NotFoundError struct{}

func (NotFoundError) Error() string { return "not found" }

func (NotFoundError) StatusCode() int { return http.StatusNotFound }

// A status method that chooses between statuses names no one shed and no
// field: not learned.
type mixedError struct{ busy bool }

func (e mixedError) Error() string { return "mixed" }

func (e mixedError) StatusCode() int {
	if e.busy {
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// Mixed is not a constructor of a shed.
func Mixed(busy bool) error { return mixedError{busy: busy} }

// Response is not an error: its Status is what a client read.
type Response struct{ Status int }

func (r *Response) StatusCode() int { return r.Status }
