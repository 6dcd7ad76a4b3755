// Package s3err keeps a service's errors in a table, after versitygw's:
// each code's entry holds the HTTP status it is answered with.
package s3err

import "net/http"

type ErrorCode int

const (
	ErrNone ErrorCode = iota
	ErrSlowDown
	ErrNoSuchKey
	ErrTooMany
)

type APIError struct {
	Code           string
	Description    string
	HTTPStatusCode int
}

func (e APIError) Error() string { return e.Code }

var errorCodeResponse = map[ErrorCode]APIError{
	ErrSlowDown: {
		Code:           "SlowDown",
		Description:    "Please reduce your request rate.",
		HTTPStatusCode: http.StatusServiceUnavailable,
	},
	ErrNoSuchKey: {
		Code:           "NoSuchKey",
		HTTPStatusCode: http.StatusNotFound,
	},
	ErrTooMany: {
		Code:           "TooMany",
		HTTPStatusCode: http.StatusTooManyRequests,
	},
}

// GetAPIError returns the entry of code.
func GetAPIError(code ErrorCode) APIError { // want GetAPIError:"statusTable\\(HTTPStatusCode:2\\)"
	return errorCodeResponse[code]
}

// statusOf is a table of statuses themselves.
var statusOf = map[string]int{"busy": 503, "gone": 410}

func StatusOf(name string) int { // want StatusOf:"statusTable\\(:1\\)"
	return statusOf[name]
}

// Lookup returns an entry after a check: not the whole body, not a getter.
func Lookup(code ErrorCode) (APIError, bool) {
	e, ok := errorCodeResponse[code]
	return e, ok
}
