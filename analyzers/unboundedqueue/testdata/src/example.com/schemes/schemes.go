// Package schemes declares the authentication scheme the API calls; the
// implementations register themselves from packages it does not import.
package schemes

import "context"

type Scheme interface {
	StartReset(ctx context.Context, email string) error
	Rotate(ctx context.Context) error
	Warm()
}

var Active Scheme
