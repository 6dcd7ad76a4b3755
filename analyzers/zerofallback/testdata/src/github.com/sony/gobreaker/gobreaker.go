// Package gobreaker is a stub of github.com/sony/gobreaker for tests.
package gobreaker

import "errors"

var (
	ErrTooManyRequests = errors.New("too many requests")
	ErrOpenState       = errors.New("circuit breaker is open")
)

type CircuitBreaker struct{}

func (cb *CircuitBreaker) Execute(req func() (interface{}, error)) (interface{}, error) { return req() }
