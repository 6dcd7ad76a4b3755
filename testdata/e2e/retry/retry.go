// Package retry has a checkout client's retry loops, against a real backoff
// library, and a shedding handler.
package retry

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

// QuoteForever is the tax-API incident's loop: every 50 ms, forever.
func QuoteForever(ctx context.Context, url string) *http.Response {
	for {
		resp, err := quote(ctx, url)
		if err == nil {
			return resp
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// QuoteBackoffTimer waits for cenkalti's next delay but never stops.
func QuoteBackoffTimer(ctx context.Context, url string) *http.Response {
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	for {
		resp, err := quote(ctx, url)
		if err == nil {
			return resp
		}
		time.Sleep(b.NextBackOff())
	}
}

// Shed sheds without saying when to come back.
func Shed(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusTooManyRequests)
}
