// Package lists wraps the other module's client behind the service's // want package:`pendingProbes\(probes: ; resolved 0; impls: \(\*lists.moovClient\).Ping, \(\*lists.moovClient\).Search\)`
// own interface, as services keep their clients for tests.
package lists

import (
	"context"
	"time"

	"example.com/apiclient"
)

type Client interface {
	Ping() error
	Search(ctx context.Context, name string) error
}

type moovClient struct{ api *apiclient.Client }

func NewClient(baseURL string) Client { return &moovClient{api: &apiclient.Client{BaseURL: baseURL}} }

func (c *moovClient) Ping() error { // want Ping:`reachesShared\(HTTP client http.DefaultClient via \(\*apiclient.Client\).Ping`
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.api.Ping(ctx)
}

func (c *moovClient) Search(ctx context.Context, name string) error { // want Search:`reachesShared\(HTTP client http.DefaultClient via \(\*apiclient.Client\).Search`
	return c.api.Search(ctx, name)
}
