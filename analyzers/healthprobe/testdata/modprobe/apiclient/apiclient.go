// Package apiclient is another module's generated API client: its calls
// go through http.DefaultClient.
package apiclient

import (
	"context"
	"net/http"
)

type Client struct{ BaseURL string }

func (c *Client) do(ctx context.Context, path string) error {
	req, err := http.NewRequestWithContext(ctx, "GET", c.BaseURL+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Ping(ctx context.Context) error { return c.do(ctx, "/ping") }

func (c *Client) Search(ctx context.Context, name string) error {
	return c.do(ctx, "/search?name="+name)
}
