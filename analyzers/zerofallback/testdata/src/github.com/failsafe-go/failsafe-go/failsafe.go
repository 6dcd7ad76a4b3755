// Package failsafe is a stub of github.com/failsafe-go/failsafe-go for tests.
package failsafe

type Execution[R any] interface {
	LastError() error
}
