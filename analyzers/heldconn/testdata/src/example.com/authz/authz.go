// Package authz wraps the authorization SDK behind the service's own
// interface; a no-op implementation serves tests.
package authz

import (
	"context"

	"fgasdk"
)

type Client interface {
	Write(ctx context.Context, user string) error
	Options() fgasdk.Options
}

type FGA struct{ cli *fgasdk.Client }

func (a *FGA) Write(ctx context.Context, user string) error {
	return a.cli.WriteTuples(ctx).Body(user).Execute()
}

func (a *FGA) Options() fgasdk.Options { return fgasdk.NewOptions().WithRetries(3) }

type Noop struct{}

func (Noop) Write(context.Context, string) error { return nil }

func (Noop) Options() fgasdk.Options { return fgasdk.NewOptions() }
