// Package middleware is a stub of watermill's router middleware.
package middleware

import "time"

type HandlerFunc func(payload []byte) error

// Retry retries a handler with an exponential backoff built from its fields.
type Retry struct {
	MaxRetries          int
	InitialInterval     time.Duration
	MaxInterval         time.Duration
	Multiplier          float64
	MaxElapsedTime      time.Duration
	RandomizationFactor float64
}

func (r Retry) Middleware(h HandlerFunc) HandlerFunc { return h }
