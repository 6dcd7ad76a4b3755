// Package connector declares what an upstream identity provider does; the
// implementations live in sub-packages, none here.
package connector

import "context"

type Identity struct{ UserID string }

type RefreshConnector interface {
	Refresh(ctx context.Context, id Identity) (Identity, error)
}

// Prober is implemented only by the in-memory stand-in.
type Prober interface {
	Probe() bool
}
