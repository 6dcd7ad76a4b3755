// Package oidc refreshes over HTTP. // want package:`implementedInBuild\(\(example.com/idp/connector.RefreshConnector\).Refresh by \(\*oidc.oidcConnector\).Refresh waits\)`
package oidc

import (
	"context"
	"net/http"

	"example.com/idp/connector"
)

type oidcConnector struct{ client *http.Client }

func (c *oidcConnector) Refresh(ctx context.Context, id connector.Identity) (connector.Identity, error) { // want Refresh:`mayNetwork\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://idp.example/token", nil)
	resp, err := c.client.Do(req)
	if err != nil {
		return id, err
	}
	return id, resp.Body.Close()
}

func Open() connector.RefreshConnector { return &oidcConnector{client: http.DefaultClient} }
