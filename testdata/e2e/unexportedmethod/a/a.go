// Package a declares an interface with an unexported method, the functional
// options pattern: only a's own types implement it.
package a

type I interface{ apply() }

type f func()

func (f) apply() {}

func New() I { return f(func() {}) }
