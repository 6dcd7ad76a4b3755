// Package bulkhead is a stub of bhlint's runtime for tests.
package bulkhead

import (
	"errors"
	"time"
)

var ErrRejected = errors.New("bulkhead: rejected")

type Rejection struct {
	Lane       string
	RetryAfter time.Duration
}

func (r *Rejection) Error() string { return "rejected" }

func AsRejection(err error) (*Rejection, bool) {
	var r *Rejection
	ok := errors.As(err, &r)
	return r, ok
}
