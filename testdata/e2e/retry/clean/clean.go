// Package clean retries and sheds the way the payment spec asks (bounded, Retry-After).
package clean

import (
	"context"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

func quote(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

// QuoteWithLibrary leaves the loop to the library: 3 attempts, jittered.
func QuoteWithLibrary(ctx context.Context, url string) (*http.Response, error) {
	var resp *http.Response
	op := func() error {
		var err error
		resp, err = quote(ctx, url)
		return err
	}
	b := backoff.WithContext(backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3), ctx)
	return resp, backoff.Retry(op, b)
}

// QuoteNextBackOff waits for the policy's delay and stops when it says so.
func QuoteNextBackOff(ctx context.Context, url string) (*http.Response, error) {
	b := backoff.NewExponentialBackOff()
	for {
		resp, err := quote(ctx, url)
		if err == nil {
			return resp, nil
		}
		next := b.NextBackOff()
		if next == backoff.Stop {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(next):
		}
	}
}

// Shed says when to come back.
func Shed(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Retry-After", "5")
	w.WriteHeader(http.StatusServiceUnavailable)
}

// Readyz is a probe.
func Readyz(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusServiceUnavailable)
}
