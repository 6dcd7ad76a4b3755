package mutexq

import (
	"net/http"
	"sync"
)

// JWTTransport adds a token to its client's own requests: the
// *http.Request its methods take is outgoing, built by the client, not a
// request the process answers. Its mutex makes concurrent callers wait for
// the one token refresh they all need.
type JWTTransport struct {
	mu    sync.Mutex
	token string
	Base  http.RoundTripper
}

func (t *JWTTransport) prepare(req *http.Request) (*http.Request, error) { // want prepare:"waitsOnNetwork"
	t.mu.Lock() // a client transport's lock: silent
	defer t.mu.Unlock()
	if t.token == "" {
		resp, err := http.Post("https://auth.example.com/token", "text/plain", nil)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		t.token = "fresh"
	}
	out := req.Clone(req.Context())
	out.Header.Set("Authorization", "Bearer "+t.token)
	return out, nil
}

func (t *JWTTransport) RoundTrip(req *http.Request) (*http.Response, error) { // want RoundTrip:"waitsOnNetwork"
	out, err := t.prepare(req)
	if err != nil {
		return nil, err
	}
	return t.Base.RoundTrip(out)
}

// refreshingDoer is the request doer a generated API client sends through
// (oapi-codegen's HttpRequestDoer): its Do sends the client's own request,
// and its lock makes concurrent calls share one token refresh.
type refreshingDoer struct {
	mu     sync.Mutex
	token  string
	client *http.Client
}

func (d *refreshingDoer) Do(req *http.Request) (*http.Response, error) { // want Do:"waitsOnNetwork"
	d.mu.Lock() // a request doer's lock: silent
	if d.token == "" {
		resp, err := d.client.Post("https://auth.example.com/token", "text/plain", nil)
		if err != nil {
			d.mu.Unlock()
			return nil, err
		}
		resp.Body.Close()
		d.token = "fresh"
	}
	d.mu.Unlock()
	req.Header.Set("Authorization", "Bearer "+d.token)
	return d.client.Do(req)
}

// Verifier is handed the request a handler (in another package) answers:
// every incoming request waits for its lock.
type Verifier struct {
	mu   sync.Mutex
	keys string
}

func (v *Verifier) RequireUser(r *http.Request) error { // want RequireUser:"waitsOnNetwork"
	v.mu.Lock() // want `mutex held across a network wait on every request: v.mu \(sync.Mutex\) is shared by every request to \(\*mutexq.Verifier\).RequireUser`
	defer v.mu.Unlock()
	if v.keys == "" {
		resp, err := http.Get("https://idp.example.com/keys")
		if err != nil {
			return err
		}
		resp.Body.Close()
		v.keys = r.Header.Get("Kid")
	}
	return nil
}

// Proxy serves requests and is its own transport: ServeHTTP answers the
// requests every client sends, and its lock is shared by all of them.
type Proxy struct {
	mu    sync.Mutex
	token string
}

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"waitsOnNetwork"
	p.mu.Lock() // want `mutex held across a network wait on every request: p.mu \(sync.Mutex\) is shared by every request to \(\*mutexq.Proxy\).ServeHTTP`
	defer p.mu.Unlock()
	resp, err := http.Post("https://auth.example.com/token", "text/plain", nil)
	if err != nil {
		return
	}
	resp.Body.Close()
}

func (p *Proxy) RoundTrip(r *http.Request) (*http.Response, error) { // want RoundTrip:"waitsOnNetwork"
	return http.DefaultTransport.RoundTrip(r)
}

// Embedder embeds a transport: its own methods are not the transport's.
type Embedder struct {
	http.RoundTripper
	mu sync.Mutex
}

func (e *Embedder) Authorize(r *http.Request) error { // want Authorize:"waitsOnNetwork"
	e.mu.Lock() // want `mutex held across a network wait on every request: e.mu \(sync.Mutex\) is shared by every request to \(\*mutexq.Embedder\).Authorize`
	defer e.mu.Unlock()
	resp, err := http.Get("https://idp.example.com/keys")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
