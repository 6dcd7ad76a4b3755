// Package store is this module's storage interface; its implementation is
// in a sub-package that only the wiring imports.
package store

import "context"

type Store interface {
	Ping(ctx context.Context) error
}
