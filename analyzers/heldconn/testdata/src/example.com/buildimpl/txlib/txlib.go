// Package txlib declares a transaction runner, as a tools module does:
// the implementation lives in another package.
package txlib

import "context"

type Tx interface {
	Transaction(ctx context.Context, fn func(ctx context.Context) error) error
}
