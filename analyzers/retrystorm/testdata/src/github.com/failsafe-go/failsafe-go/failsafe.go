// Package failsafe is a stub of github.com/failsafe-go/failsafe-go.
package failsafe

type Policy[R any] interface{ policy() }

func Get[R any](fn func() (R, error), policies ...Policy[R]) (R, error) { return fn() }

func Run(fn func() error, policies ...Policy[any]) error { return fn() }
