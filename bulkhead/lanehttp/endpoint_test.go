package lanehttp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/lanehttp"
	"github.com/bhlint/bhlint/bulkhead/shuffleshard"
)

// TestEndpointChoosesPerTenant: with a shuffle sharder as the endpoint
// chooser, a tenant's requests reach only its own 2 of 6 servers; when one
// of them dies, one request fails, the endpoint is marked down and the
// tenant's next requests go to its other server.
func TestEndpointChoosesPerTenant(t *testing.T) {
	var hits [6]atomic.Int64
	servers := make([]*httptest.Server, 6)
	urls := make([]string, 6)
	for i := range servers {
		servers[i] = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			hits[i].Add(1)
			io.WriteString(w, "ok")
		}))
		t.Cleanup(servers[i].Close)
		urls[i] = servers[i].URL
	}
	s, err := shuffleshard.New(urls, 2)
	if err != nil {
		t.Fatal(err)
	}
	c, err := lanehttp.New[Tax](lanehttp.Config{
		MaxConnsPerHost: 2, AcquireTimeout: time.Second,
		Endpoint:        s.Endpoint(func(r *http.Request) string { return r.Header.Get("X-Tenant") }),
		OnEndpointError: s.EndpointFailed,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	send := func() error {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://search.internal/q", nil)
		req.Header.Set("X-Tenant", "acme")
		resp, err := c.Do(req)
		if req.URL.Host != "search.internal" {
			t.Errorf("Do changed the caller's request URL to %s", req.URL)
		}
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, err = io.ReadAll(resp.Body)
		return err
	}
	for range 20 {
		if err := send(); err != nil {
			t.Fatal(err)
		}
	}
	shard := s.Shard("acme")
	reached := 0
	for i, u := range urls {
		if hits[i].Load() > 0 {
			reached++
			if u != shard[0] && u != shard[1] {
				t.Errorf("tenant acme reached %s, outside its shard %v", u, shard)
			}
		}
	}
	if reached != 2 {
		t.Errorf("20 requests reached %d servers, want the shard's 2", reached)
	}

	for i, u := range urls {
		if u == shard[0] {
			servers[i].Close()
		}
	}
	failed := 0
	for range 10 {
		if send() != nil {
			failed++
		}
	}
	if failed != 1 {
		t.Errorf("%d of 10 requests failed after one of the shard's servers died, want 1 (then it is skipped)", failed)
	}
}
