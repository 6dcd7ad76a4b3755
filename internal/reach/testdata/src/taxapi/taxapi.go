// Package taxapi is a client of a tax API in another package: its facts
// carry the dependency (the Client's field) to the callers.
package taxapi

import (
	"context"
	"net/http"
)

// Client calls the tax API.
type Client struct {
	base string
	http *http.Client
}

// Quote waits on the tax API.
func (c *Client) Quote(ctx context.Context, order string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/quote/"+order, nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Post sends on the client it is given: its caller names the dependency.
func Post(ctx context.Context, client *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// PostAsync sends in a goroutine: its callers do not wait on it.
func PostAsync(client *http.Client, url string) {
	go func() {
		Post(context.Background(), client, url)
	}()
}
