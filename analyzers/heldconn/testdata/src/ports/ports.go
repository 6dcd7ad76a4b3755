// Package ports declares a unit of work with no implementation of its own.
package ports

import "context"

type UnitOfWork interface {
	Do(ctx context.Context, fn func(ctx context.Context) error) error
}
