// Package httpuse: handlers that return error values of another package,
// known to carry a 429 or 503 by their type's status method.
package httpuse

import (
	"context"
	"net/http"

	"example.com/shedmod/httperr"
)

type Svc struct{ inFlight, max int }

// ---- positives ----

func (s *Svc) Create(ctx context.Context) error {
	if s.inFlight >= s.max {
		return httperr.NewTooManyRequestsError("too many in flight") // want `\(\*httpuse.Svc\).Create builds an error carrying HTTP 429 Too Many Requests`
	}
	return nil
}

func (s *Svc) Update(ctx context.Context) error {
	if s.inFlight >= s.max {
		return httperr.New(http.StatusServiceUnavailable, "draining") // want `Update builds an error carrying HTTP 503 Service Unavailable`
	}
	return nil
}

func (s *Svc) Delete(ctx context.Context) error {
	if s.inFlight >= s.max {
		return httperr.TooManyRequestsError{Msg: "busy"} // want `Delete builds an error carrying HTTP 429`
	}
	return nil
}

func (s *Svc) Patch(ctx context.Context) error {
	if s.inFlight >= s.max {
		return &httperr.TooManyRequestsError{Msg: "busy"} // want `Patch builds an error carrying HTTP 429`
	}
	return httperr.NewOverloaded() // want `Patch builds an error carrying HTTP 429`
}

// ---- traps ----

func (s *Svc) Get(ctx context.Context) error {
	if s.inFlight < 0 {
		return httperr.NotFoundError{}
	}
	if s.inFlight > s.max {
		return httperr.Mixed(true)
	}
	return httperr.New(http.StatusConflict, "exists")
}

// Passing on an error received from a constructor call elsewhere.
func (s *Svc) Forward(ctx context.Context, call func() error) error {
	if err := call(); err != nil {
		return err
	}
	return nil
}
