// Package taxclient calls the external tax API.
package taxclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Client is the tax API's client.
type Client struct {
	base string
	http *http.Client
}

// New returns a client with the given overall timeout.
func New(base string, timeout time.Duration) *Client {
	return &Client{base: base, http: &http.Client{Timeout: timeout}}
}

// Quote asks the tax API for the tax on an amount.
func (c *Client) Quote(ctx context.Context, jurisdiction string, amountCents int64) (int64, error) {
	u := fmt.Sprintf("%s/quote?jurisdiction=%s&amount=%d", c.base, url.QueryEscape(jurisdiction), amountCents)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, fmt.Errorf("tax API: %w", err)
	}
	defer resp.Body.Close()
	var body struct {
		TaxCents int64 `json:"tax_cents"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return 0, fmt.Errorf("tax API: decoding quote: %w", err)
	}
	return body.TaxCents, nil
}
