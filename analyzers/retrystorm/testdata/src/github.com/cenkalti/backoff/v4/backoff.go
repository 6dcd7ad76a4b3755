// Package backoff is a stub of github.com/cenkalti/backoff/v4.
package backoff

import "time"

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
