// Package limiter: admission methods of the shape of go-grpc-middleware's
// ratelimit.Limiter, whose errors its interceptors send as
// ResourceExhausted. The package imports no gRPC: the limiter is still
// where the refusal is decided.
package limiter

import (
	"context"
	"errors"
	"fmt"

	xcontext "golang.org/x/net/context"
	"golang.org/x/time/rate"
)

// ---- positives ----

// TokenBucket refuses when no token is left.
type TokenBucket struct{ rl *rate.Limiter }

func (l *TokenBucket) Limit(_ context.Context) error {
	if !l.rl.Allow() {
		return fmt.Errorf("reached rate limit %v", l.rl.Limit()) // want `ERR_MISSING_RETRY_AFTER: \(\*limiter.TokenBucket\).Limit refuses the call with an error, which the middleware calling ratelimit.Limiter.Limit sends as gRPC ResourceExhausted without retry guidance; send the grpc-retry-pushback-ms trailer`
	}
	return nil
}

// Waiter refuses when the wait would outlast the call's deadline.
type Waiter struct{ rl *rate.Limiter }

func (w Waiter) Limit(ctx context.Context) error {
	return w.rl.Wait(ctx) // want `\(limiter.Waiter\).Limit refuses the call with an error`
}

// ---- traps ----

// Admit never refuses.
type Admit struct{}

func (Admit) Limit(context.Context) error { return nil }

// OldShape has go-grpc-middleware v1's Limit() bool: not the catalogued
// method.
type OldShape struct{ full bool }

func (o *OldShape) Limit() bool { return o.full }

// TwoArgs takes more than the call's context: not the admission method.
type TwoArgs struct{}

func (TwoArgs) Limit(_ context.Context, n int) error {
	if n > 1 {
		return errors.New("too many")
	}
	return nil
}

// limitFunc is a function, not a method: no interface can hold it.
func limitFunc(_ context.Context) error { return errors.New("no") }

var _ = limitFunc

// OldContext takes golang.org/x/net/context's Context, an alias of
// context.Context: the same method.
type OldContext struct{ rl *rate.Limiter }

func (l *OldContext) Limit(_ xcontext.Context) error {
	if l.rl.Tokens() < 1 {
		return errors.New("rate limited") // want `\(\*limiter.OldContext\).Limit refuses the call`
	}
	return nil
}
