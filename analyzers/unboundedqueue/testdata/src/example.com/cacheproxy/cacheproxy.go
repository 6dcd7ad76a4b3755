// Package cacheproxy returns, from a factory, a function that notifies a
// proxy over HTTP: the factory is marked returnsNetworkFunc for callers in
// other packages.
package cacheproxy

import (
	"context"
	"net/http"
)

type Proxy interface {
	Notify(ctx context.Context, channel string) error // want Notify:"waitsOnNetwork"
}

type HTTPProxy struct {
	client   *http.Client
	endpoint string
}

func (p *HTTPProxy) Notify(ctx context.Context, channel string) error { // want Notify:"waitsOnNetwork"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint+"?channel="+channel, nil)
	if err != nil {
		return err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type HandlerFunc func(ctx context.Context, channel string) error

type Handler struct{ proxy Proxy }

func (h *Handler) Handle() HandlerFunc { // want Handle:`returnsNetworkFunc\(func literal in \(\*cacheproxy.Handler\).Handle → \(cacheproxy.Proxy\).Notify → \(\*cacheproxy.HTTPProxy\).Notify → \(\*http.Client\).Do\)`
	return func(ctx context.Context, channel string) error {
		return h.proxy.Notify(ctx, channel)
	}
}

// Local returns a function that only computes.
func Local() HandlerFunc {
	return func(ctx context.Context, channel string) error { return ctx.Err() }
}
