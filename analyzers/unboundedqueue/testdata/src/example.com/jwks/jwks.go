// Package jwks fetches a key set through an HTTP client interface of its
// own, as jwk's AutoRefresh does: its Refresh waits on the network (the
// waitsOnNetwork fact: an interface method shaped as (*http.Client).Do is
// an HTTP client), which a caller in another package holds a mutex across.
package jwks

import (
	"context"
	"net/http"
)

// HTTPClient is what the caller passes: an *http.Client or a wrapper.
type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}

type Set struct {
	URL    string
	client HTTPClient
}

func (s *Set) Refresh(ctx context.Context) error { // want Refresh:"waitsOnNetwork"
	return s.fetch(ctx)
}

func (s *Set) fetch(ctx context.Context) error { // want fetch:"waitsOnNetwork"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.URL, nil)
	if err != nil {
		return err
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Lookup reads the keys already fetched.
func (s *Set) Lookup(kid string) bool { return kid != "" }
