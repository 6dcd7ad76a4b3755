// Package retry is a stub of github.com/sethvargo/go-retry.
package retry

import (
	"context"
	"time"
)

type Backoff interface{ Next() (time.Duration, bool) }

type BackoffFunc func() (time.Duration, bool)

func (b BackoffFunc) Next() (time.Duration, bool) { return b() }

type RetryFunc func(ctx context.Context) error

func RetryableError(err error) error { return err }

func Do(ctx context.Context, b Backoff, f RetryFunc) error { return f(ctx) }

func Constant(ctx context.Context, t time.Duration, f RetryFunc) error { return f(ctx) }

func NewConstant(t time.Duration) Backoff                         { return nil }
func NewExponential(t time.Duration) Backoff                      { return nil }
func WithMaxRetries(max uint64, next Backoff) Backoff             { return next }
func WithMaxDuration(timeout time.Duration, next Backoff) Backoff { return next }
func WithJitter(j time.Duration, next Backoff) Backoff            { return next }
func WithCappedDuration(cap time.Duration, next Backoff) Backoff  { return next }
