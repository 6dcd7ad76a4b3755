// Package apierr: an error value that carries the HTTP status a router's
// error handler writes, as pocketbase's router.ApiError.
package apierr

import "net/http"

type ApiError struct {
	Message string
	Status  int
}

func (e *ApiError) Error() string { return e.Message }

// NewApiError fills the status from its parameter.
func NewApiError(status int, message string) *ApiError { // want NewApiError:"shedError\\(code param 0\\)"
	return &ApiError{Message: message, Status: status}
}

// NewTooManyRequestsError is a constructor: its callers are reported.
func NewTooManyRequestsError(message string) *ApiError { // want NewTooManyRequestsError:"shedError\\(HTTP 429 Too Many Requests\\)"
	if message == "" {
		message = "Too Many Requests."
	}
	return NewApiError(http.StatusTooManyRequests, message)
}

func NewBadRequestError(message string) *ApiError {
	return NewApiError(http.StatusBadRequest, message)
}
