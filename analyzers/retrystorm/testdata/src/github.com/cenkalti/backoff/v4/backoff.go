// Package backoff is a stub of github.com/cenkalti/backoff/v4.
package backoff

import (
	"context"
	"time"
)

const Stop time.Duration = -1

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

type ExponentialBackOff struct{ cur time.Duration }

func NewExponentialBackOff() *ExponentialBackOff { return &ExponentialBackOff{} }

func (b *ExponentialBackOff) NextBackOff() time.Duration { b.cur *= 2; return b.cur }
func (b *ExponentialBackOff) Reset()                     {}

type Operation func() error

func Retry(o Operation, b BackOff) error { return o() }

func WithMaxRetries(b BackOff, max uint64) BackOff { return b }

type ConstantBackOff struct{ Interval time.Duration }

func (b *ConstantBackOff) NextBackOff() time.Duration { return b.Interval }
func (b *ConstantBackOff) Reset()                     {}

func NewConstantBackOff(d time.Duration) *ConstantBackOff { return &ConstantBackOff{Interval: d} }

type Notify func(error, time.Duration)

func RetryNotify(o Operation, b BackOff, n Notify) error { return o() }

func RetryWithData[T any](o func() (T, error), b BackOff) (T, error) { return o() }

type BackOffContext interface {
	BackOff
	Context() context.Context
}

func WithContext(b BackOff, ctx context.Context) BackOffContext { return nil }
