// Package transports has handlers that make an http.Transport, a connection
// pool, on every request, and look-alikes that make one and share it.
package transports

import (
	"crypto/tls"
	"net/http"
	"net/http/httputil"
	"sync"
	"time"
)

type API struct {
	transport *http.Transport
	client    *http.Client
	once      sync.Once
}

var sharedTransport *http.Transport

// A clone of the default transport per request, for an upstream call.
func (a *API) transportClonedPerRequest(w http.ResponseWriter, r *http.Request) {
	transport := http.DefaultTransport.(*http.Transport).Clone() // want `ERR_UNBOUNDED_QUEUE_DETECTED: transport per request: this Clone of an http.Transport makes a new connection pool on every request`
	transport.TLSClientConfig = &tls.Config{}
	client := &http.Client{Transport: transport, Timeout: 5 * time.Second}
	resp, err := client.Get("https://rates.example.com/latest")
	if err == nil {
		resp.Body.Close()
	}
}

// A transport literal per request for a reverse proxy.
func (a *API) transportLiteralPerRequest(w http.ResponseWriter, r *http.Request) { // want transportLiteralPerRequest:"waitsOnNetwork"
	proxy := &httputil.ReverseProxy{
		Director:  func(req *http.Request) {},
		Transport: &http.Transport{MaxConnsPerHost: 8}, // want `transport per request: this http.Transport literal makes a new connection pool on every request`
	}
	proxy.ServeHTTP(w, r)
}

// Trap: made once, when the service starts, and shared.
func NewAPI() *API {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxConnsPerHost = 16
	return &API{transport: t, client: &http.Client{Transport: t}}
}

// Trap: the first request fills a field the later ones reuse.
func (a *API) transportCachedInField(w http.ResponseWriter, r *http.Request) {
	if a.transport == nil {
		a.transport = &http.Transport{MaxConnsPerHost: 8}
	}
	_ = &http.Client{Transport: a.transport}
}

// Trap: a package-level transport filled once.
func (a *API) transportCachedInPackage(w http.ResponseWriter, r *http.Request) {
	if sharedTransport == nil {
		sharedTransport = http.DefaultTransport.(*http.Transport).Clone()
	}
}

// Trap: made under a sync.Once.
func (a *API) transportMadeOnce(w http.ResponseWriter, r *http.Request) {
	a.once.Do(func() {
		t := &http.Transport{MaxConnsPerHost: 8}
		a.client = &http.Client{Transport: t}
	})
}

// Trap: a shared transport used per request makes none.
func (a *API) transportShared(w http.ResponseWriter, r *http.Request) {
	_ = &http.Client{Transport: a.transport, Timeout: time.Second}
}

// ---- a transport per key, kept in a cache ----

var (
	byUpstream = map[string]http.RoundTripper{}
	cacheMu    sync.Mutex
)

func cachedTransport(upstream string) (http.RoundTripper, bool) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	t, ok := byUpstream[upstream]
	return t, ok
}

func keepTransport(upstream string, t http.RoundTripper) {
	cacheMu.Lock()
	byUpstream[upstream] = t
	cacheMu.Unlock()
}

func describe(t http.RoundTripper) string { return "transport" }

// Trap: made on a cache miss and handed to the cache (nightingale's data
// source proxy): one per upstream, reused by the requests that follow.
func (a *API) transportPerUpstream(w http.ResponseWriter, r *http.Request) { // want transportPerUpstream:"waitsOnNetwork"
	upstream := r.URL.Query().Get("upstream")
	transport, ok := cachedTransport(upstream)
	if !ok {
		transport = &http.Transport{MaxConnsPerHost: 8}
		keepTransport(upstream, transport)
	}
	proxy := &httputil.ReverseProxy{Director: func(*http.Request) {}, Transport: transport}
	proxy.ServeHTTP(w, r)
}

// Trap: kept in a map entry where it is made.
func (a *API) transportIntoMap(w http.ResponseWriter, r *http.Request) {
	upstream := r.URL.Query().Get("upstream")
	if _, ok := byUpstream[upstream]; !ok {
		byUpstream[upstream] = &http.Transport{MaxConnsPerHost: 8}
	}
}

// Handed to a function that only reads it: made anew on every request.
func (a *API) transportHandedOn(w http.ResponseWriter, r *http.Request) {
	transport := &http.Transport{MaxConnsPerHost: 8} // want `transport per request: this http.Transport literal`
	_ = describe(transport)
	client := &http.Client{Transport: transport}
	_ = client
}
