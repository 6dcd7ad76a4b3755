// Package lanehttp gives each bulkhead lane its own outbound HTTP client:
// its own transport and connection pool, so one lane's stalled dependency
// cannot take sockets, or connection slots, from another lane.
//
//	taxAPI, err := lanehttp.New[Tax](lanehttp.Config{
//		MaxConnsPerHost:       5,                      // required
//		AcquireTimeout:        50 * time.Millisecond,  // required: wait for a slot
//		ResponseHeaderTimeout: 2 * time.Second,
//	})
//	resp, err := taxAPI.Do(req) // a *lanepool.AcquireError when the host's slots stay busy
//
// Each Client[L] has an http.Transport of its own, never shared. At most
// MaxConnsPerHost requests to one host are in flight at once (a request
// holds its slot until its response body is read to the end or closed); at
// most MaxWaiters callers wait for a slot, each for at most AcquireTimeout.
// Dialing, the TLS handshake, waiting for the response headers and the
// whole request each have a timeout, with defaults where none is given.
// Using a lane's client from another lane's work fails with a
// *lanepool.CrossLaneError, as lane pools do.
package lanehttp

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/bhlint/bhlint/bulkhead/internal/gate"
	"github.com/bhlint/bhlint/bulkhead/lanepool"
)

// Config configures a lane's client.
type Config struct {
	// MaxConnsPerHost caps the connections, and the requests in flight, to
	// each host. Required.
	MaxConnsPerHost int
	// MaxIdleConnsPerHost is how many idle connections to each host are
	// kept. Default MaxConnsPerHost.
	MaxIdleConnsPerHost int
	// MaxWaiters is how many callers may wait for a host's slot; 0 fails at once.
	MaxWaiters int
	// AcquireTimeout is the longest a caller waits for a slot. Required.
	AcquireTimeout time.Duration
	// DialTimeout (default 1s), TLSHandshakeTimeout (default 2s),
	// ResponseHeaderTimeout (default 10s), IdleConnTimeout (default 90s).
	DialTimeout, TLSHandshakeTimeout, ResponseHeaderTimeout, IdleConnTimeout time.Duration
	// Timeout bounds a whole request, body included (http.Client.Timeout).
	// Default 30s; the request's context may end it sooner.
	Timeout time.Duration
	// Guard, Logger, Observers and RetryAfter are as in lanepool.Config.
	Guard      lanepool.GuardMode
	Logger     *slog.Logger
	Observers  []lanepool.Observer
	RetryAfter time.Duration
	// Proxy defaults to http.ProxyFromEnvironment; TLSClientConfig to Go's defaults.
	Proxy           func(*http.Request) (*url.URL, error)
	TLSClientConfig *tls.Config
	// CheckRedirect is http.Client.CheckRedirect. Redirected requests share
	// the first request's slot.
	CheckRedirect func(req *http.Request, via []*http.Request) error
	// Endpoint, when set, chooses the endpoint each request is sent to: its
	// scheme and host replace the request URL's (shuffleshard's
	// Sharder.Endpoint keeps each tenant on its own few endpoints). An
	// error fails the request before anything is sent.
	Endpoint func(*http.Request) (*url.URL, error)
	// OnEndpointError, when set with Endpoint, is told when a request to
	// the chosen endpoint got no response (refused, reset, timed out)
	// while its caller still waited, so the chooser can skip it.
	OnEndpointError func(endpoint *url.URL, err error)
}

// Client is lane L's outbound HTTP client.
type Client[L bulkhead.Lane] struct {
	hc              *http.Client
	tr              *http.Transport
	lane            string
	resource        string
	pcfg            lanepool.Config
	endpoint        func(*http.Request) (*url.URL, error)
	onEndpointError func(*url.URL, error)

	mu    sync.Mutex
	hosts map[string]*gate.Gate
}

// New makes lane L's client.
func New[L bulkhead.Lane](cfg Config) (*Client[L], error) {
	spec, err := bulkhead.SpecOf[L]()
	if err != nil {
		return nil, err
	}
	resource := "lanehttp.Client[" + typeName[L]() + "]"
	if cfg.MaxConnsPerHost < 1 {
		return nil, fmt.Errorf("%s: MaxConnsPerHost is %d; set the lane's connection budget per host", resource, cfg.MaxConnsPerHost)
	}
	pcfg, err := lanepool.Config{
		MaxConns: cfg.MaxConnsPerHost, MaxWaiters: cfg.MaxWaiters, AcquireTimeout: cfg.AcquireTimeout,
		LeakThreshold: -1, Guard: cfg.Guard, Logger: cfg.Logger, Observers: cfg.Observers, RetryAfter: cfg.RetryAfter,
	}.Resolve(spec, resource)
	if err != nil {
		return nil, err
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&cfg.DialTimeout, time.Second)
	def(&cfg.TLSHandshakeTimeout, 2*time.Second)
	def(&cfg.ResponseHeaderTimeout, 10*time.Second)
	def(&cfg.IdleConnTimeout, 90*time.Second)
	def(&cfg.Timeout, 30*time.Second)
	if cfg.MaxIdleConnsPerHost <= 0 || cfg.MaxIdleConnsPerHost > cfg.MaxConnsPerHost {
		cfg.MaxIdleConnsPerHost = cfg.MaxConnsPerHost
	}
	if cfg.Proxy == nil {
		cfg.Proxy = http.ProxyFromEnvironment
	}
	dialer := &net.Dialer{Timeout: cfg.DialTimeout, KeepAlive: 30 * time.Second}
	tr := &http.Transport{
		Proxy:                 cfg.Proxy,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxConnsPerHost:       cfg.MaxConnsPerHost,
		MaxIdleConnsPerHost:   cfg.MaxIdleConnsPerHost,
		MaxIdleConns:          0, // bounded per host
		IdleConnTimeout:       cfg.IdleConnTimeout,
		TLSHandshakeTimeout:   cfg.TLSHandshakeTimeout,
		ResponseHeaderTimeout: cfg.ResponseHeaderTimeout,
		ExpectContinueTimeout: time.Second,
		TLSClientConfig:       cfg.TLSClientConfig,
	}
	return &Client[L]{
		hc:   &http.Client{Transport: tr, Timeout: cfg.Timeout, CheckRedirect: cfg.CheckRedirect},
		tr:   tr,
		lane: spec.Name, resource: resource, pcfg: pcfg,
		endpoint: cfg.Endpoint, onEndpointError: cfg.OnEndpointError,
		hosts: map[string]*gate.Gate{},
	}, nil
}

func typeName[L any]() string {
	t := reflect.TypeFor[L]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

// Lane is the name of the lane the client belongs to.
func (c *Client[L]) Lane() string { return c.lane }

func (c *Client[L]) host(u *url.URL) *gate.Gate {
	key := hostKey(u)
	c.mu.Lock()
	defer c.mu.Unlock()
	g := c.hosts[key]
	if g == nil {
		g = gate.New(c.lane, c.resource+" host "+key, c.pcfg)
		c.hosts[key] = g
		g.Attach(hostSource{g})
	}
	return g
}

type hostSource struct{ g *gate.Gate }

func (h hostSource) PoolStats() lanepool.Stats { return h.g.Stats() }

// hostKey is scheme://host:port, the unit net/http pools connections by.
func hostKey(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return u.Scheme + "://" + net.JoinHostPort(u.Hostname(), port)
}

// Do sends req in the lane. It fails without sending when the lane's slots
// for req's host stay busy for AcquireTimeout (a *lanepool.AcquireError) or
// when req's context is another lane's work (a *lanepool.CrossLaneError).
// The caller must close the response body; the slot is held until then, or
// until the body is read to the end.
func (c *Client[L]) Do(req *http.Request) (*http.Response, error) {
	if req.URL == nil {
		return nil, fmt.Errorf("%s: request without a URL", c.resource)
	}
	var endpoint *url.URL
	if c.endpoint != nil {
		var err error
		if endpoint, err = c.endpoint(req); err != nil {
			return nil, fmt.Errorf("%s: choosing an endpoint: %w", c.resource, err)
		}
		req = toEndpoint(req, endpoint)
	}
	t, _, err := c.host(req.URL).Acquire(req.Context(), 1)
	if err != nil {
		return nil, err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Release()
		if endpoint != nil && c.onEndpointError != nil && req.Context().Err() == nil {
			c.onEndpointError(endpoint, err)
		}
		return nil, err
	}
	resp.Body = &body{rc: resp.Body, t: t}
	return resp, nil
}

// toEndpoint is req sent to endpoint's scheme and host; a Host header the
// caller set apart from the URL is kept.
func toEndpoint(req *http.Request, endpoint *url.URL) *http.Request {
	r := req.WithContext(req.Context()) // a shallow copy: the caller's request is not changed
	u := *req.URL
	u.Scheme, u.Host = endpoint.Scheme, endpoint.Host
	r.URL = &u
	if req.Host == req.URL.Host {
		r.Host = ""
	}
	return r
}

// Get sends a GET of url in the lane, with ctx as the request's context.
func (c *Client[L]) Get(ctx context.Context, url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return c.Do(req)
}

// body gives the slot back at EOF or Close, whichever comes first.
type body struct {
	rc io.ReadCloser
	t  *gate.Ticket
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if err == io.EOF {
		b.t.Release()
	}
	return n, err
}

func (b *body) Close() error {
	err := b.rc.Close()
	b.t.Release()
	return err
}

// CloseIdleConnections closes the client's idle connections.
func (c *Client[L]) CloseIdleConnections() { c.tr.CloseIdleConnections() }

// PoolStats is one lanepool.Stats per host the client has talked to, in
// host order; InUse is requests in flight.
func (c *Client[L]) PoolStats() []lanepool.Stats {
	c.mu.Lock()
	gs := make([]*gate.Gate, 0, len(c.hosts))
	for _, g := range c.hosts {
		gs = append(gs, g)
	}
	c.mu.Unlock()
	out := make([]lanepool.Stats, 0, len(gs))
	for _, g := range gs {
		out = append(out, g.Stats())
	}
	slices.SortFunc(out, func(a, b lanepool.Stats) int {
		switch {
		case a.Resource < b.Resource:
			return -1
		case a.Resource > b.Resource:
			return 1
		}
		return 0
	})
	return out
}
