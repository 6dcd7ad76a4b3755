package lanehttp_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/lanehttp"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type (
	CardAuth struct{}
	Tax      struct{}
)

func (CardAuth) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 8} }
func (Tax) Spec() bulkhead.LaneSpec      { return bulkhead.LaneSpec{MaxConcurrent: 4} }

// server records, for each client connection (remote address), the lanes
// whose requests came over it. /slow stalls until release is closed.
type server struct {
	*httptest.Server
	release chan struct{}
	mu      sync.Mutex
	byConn  map[string]map[string]bool
	slow    chan struct{}
}

func newServer(t *testing.T) *server {
	s := &server{release: make(chan struct{}), byConn: map[string]map[string]bool{}, slow: make(chan struct{}, 16)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		if s.byConn[r.RemoteAddr] == nil {
			s.byConn[r.RemoteAddr] = map[string]bool{}
		}
		s.byConn[r.RemoteAddr][r.Header.Get("X-Lane")] = true
		s.mu.Unlock()
		if r.URL.Path == "/slow" {
			s.slow <- struct{}{}
			select {
			case <-s.release:
			case <-r.Context().Done():
			}
		}
		io.WriteString(w, "ok")
	}))
	t.Cleanup(func() {
		select {
		case <-s.release:
		default:
			close(s.release)
		}
		s.Close()
	})
	return s
}

func get[L bulkhead.Lane](ctx context.Context, c *lanehttp.Client[L], url, lane string) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	req.Header.Set("X-Lane", lane)
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.ReadAll(resp.Body)
	return err
}

func TestStalledHostDoesNotReachOtherLane(t *testing.T) {
	srv := newServer(t)
	tax, err := lanehttp.New[Tax](lanehttp.Config{MaxConnsPerHost: 1, MaxWaiters: 1, AcquireTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	card, err := lanehttp.New[CardAuth](lanehttp.Config{MaxConnsPerHost: 4, MaxWaiters: 32, AcquireTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer tax.CloseIdleConnections()
	defer card.CloseIdleConnections()

	stalled := make(chan error, 1)
	go func() { stalled <- get(context.Background(), tax, srv.URL+"/slow", "tax") }()
	<-srv.slow

	start := time.Now()
	err = get(context.Background(), tax, srv.URL+"/fast", "tax")
	var ae *lanepool.AcquireError
	if !errors.As(err, &ae) || ae.Reason != lanepool.ReasonTimeout || time.Since(start) < 100*time.Millisecond {
		t.Errorf("second tax request: %v after %s; want an acquire timeout after 100ms", err, time.Since(start))
	}
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := get(ctx, card, srv.URL+"/fast", "card_auth"); err != nil {
				t.Errorf("card_auth request %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	close(srv.release)
	if err := <-stalled; err != nil {
		t.Errorf("the stalled tax request: %v", err)
	}

	srv.mu.Lock()
	defer srv.mu.Unlock()
	conns := map[string]int{}
	for addr, lanes := range srv.byConn {
		if len(lanes) != 1 {
			t.Errorf("connection %s carried requests of %d lanes: %v", addr, len(lanes), lanes)
		}
		for l := range lanes {
			conns[l]++
		}
	}
	t.Logf("connections per lane: %v", conns)
	if conns["tax"] != 1 || conns["card_auth"] > 4 || conns["card_auth"] < 1 {
		t.Errorf("connections per lane: %v; want tax 1, card_auth 1..4", conns)
	}
	for _, s := range append(tax.PoolStats(), card.PoolStats()...) {
		if s.InUse != 0 || s.Waiting != 0 {
			t.Errorf("%s: %d in flight, %d waiting after the test", s.Resource, s.InUse, s.Waiting)
		}
	}
}

func TestCrossLaneAndTimeouts(t *testing.T) {
	srv := newServer(t)
	tax, err := lanehttp.New[Tax](lanehttp.Config{MaxConnsPerHost: 2, AcquireTimeout: time.Second, ResponseHeaderTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer tax.CloseIdleConnections()
	err = bulkhead.MustExecutor[CardAuth]().Do(context.Background(), func(ctx context.Context) error {
		return get(ctx, tax, srv.URL+"/fast", "card_auth")
	})
	if !errors.Is(err, lanepool.ErrCrossLane) || !strings.Contains(err.Error(), "lanehttp.Client[Tax]") {
		t.Errorf("card_auth using the tax client: %v", err)
	}
	err = bulkhead.MustExecutor[Tax]().Do(context.Background(), func(ctx context.Context) error {
		return get(ctx, tax, srv.URL+"/slow", "tax")
	})
	if err == nil || !strings.Contains(err.Error(), "timeout awaiting response headers") {
		t.Errorf("a stalled server: %v; want the response header timeout", err)
	}
	if _, err := lanehttp.New[Tax](lanehttp.Config{AcquireTimeout: time.Second}); err == nil || !strings.Contains(err.Error(), "MaxConnsPerHost") {
		t.Errorf("no budget: %v", err)
	}
	for _, s := range tax.PoolStats() {
		if s.InUse != 0 || s.CrossLane != 1 {
			t.Errorf("stats: %+v", s)
		}
	}
}
