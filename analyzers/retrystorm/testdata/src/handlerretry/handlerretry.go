// Package handlerretry wraps message handlers in a retry policy written as
// a struct literal.
package handlerretry

import (
	"time"

	"github.com/ThreeDotsLabs/watermill/message/router/middleware"
)

type Config struct{ Multiplier float64 }

// retryInStep: the growth factor and the jitter are left at zero, so every
// instance retries a failing handler after the same 100 ms, then at once.
func retryInStep() middleware.HandlerFunc {
	r := middleware.Retry{MaxRetries: 3, InitialInterval: 100 * time.Millisecond} // want `this github.com/ThreeDotsLabs/watermill/message/router/middleware.Retry retries the message handlers it wraps waiting a constant time between attempts with no backoff or jitter \(Multiplier unset, RandomizationFactor unset\)`
	return r.Middleware(func([]byte) error { return nil })
}

// retryConstantFactor: a factor of 1 keeps the delay constant.
var retryConstantFactor = middleware.Retry{MaxRetries: 5, InitialInterval: time.Second, Multiplier: 1} // want `\(Multiplier = 1, RandomizationFactor unset\)`

// ---- traps: must stay silent ----

// backsOff grows the delay.
var backsOff = middleware.Retry{MaxRetries: 5, InitialInterval: 100 * time.Millisecond, Multiplier: 2}

// jittered randomises the delay.
var jittered = middleware.Retry{MaxRetries: 5, InitialInterval: 100 * time.Millisecond, RandomizationFactor: 0.5}

// endsAtDeadline gives up after 10 s: a known, small number of attempts.
var endsAtDeadline = middleware.Retry{MaxRetries: 100, InitialInterval: 100 * time.Millisecond, MaxElapsedTime: 10 * time.Second}

// configuredFactor takes its factor from configuration: taken to back off.
func configuredFactor(cfg Config) middleware.Retry {
	return middleware.Retry{MaxRetries: 3, Multiplier: cfg.Multiplier}
}

// positional fields are not read.
var positional = middleware.Retry{3, time.Second, time.Minute, 0, 0, 0}
