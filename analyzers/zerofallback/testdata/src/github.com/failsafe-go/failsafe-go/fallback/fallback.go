// Package fallback is a stub of failsafe-go's fallback package for tests.
package fallback

import "github.com/failsafe-go/failsafe-go"

type Fallback[R any] interface{ isFallback() }

type fb[R any] struct{}

func (fb[R]) isFallback() {}

func NewWithResult[R any](result R) Fallback[R] { return fb[R]{} }

func NewWithError[R any](err error) Fallback[R] { return fb[R]{} }

func NewWithFunc[R any](fallbackFunc func(exec failsafe.Execution[R]) (R, error)) Fallback[R] {
	return fb[R]{}
}
