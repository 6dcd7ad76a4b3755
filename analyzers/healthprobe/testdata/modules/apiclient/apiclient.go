// Package apiclient is another module's API client: its interfaces here,
// its HTTP implementation in a sub-package.
package apiclient

import "context"

type API interface {
	Ping(ctx context.Context) error
	Fetch(ctx context.Context, id string) error
}

type Syncer interface {
	Sync(ctx context.Context) error
}

// Hook is implemented by the caller, if at all.
type Hook interface {
	Notify(ctx context.Context) error
}
