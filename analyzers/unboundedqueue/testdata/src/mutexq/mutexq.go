// Package mutexq holds mutexes taken on a request's path: held across a
// network wait (reported) and the look-alikes that must stay silent.
package mutexq

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
	"google.golang.org/grpc/metadata"

	"example.com/jwks"
)

// Backgrounds is navidrome's shape: the handler's value holds the lock, a
// helper two calls down takes it and fetches while holding it (a deferred
// Unlock). The client's timeout does not help: the tenth waiter waits ten
// timeouts.
type Backgrounds struct {
	list []string
	lock sync.RWMutex
}

func (h *Backgrounds) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	img, err := h.random(r.Context())
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	http.Redirect(w, r, img, http.StatusFound)
}

func (h *Backgrounds) random(ctx context.Context) (string, error) {
	list, err := h.images(ctx)
	if err != nil || len(list) == 0 {
		return "", errors.New("no images")
	}
	return list[0], nil
}

func (h *Backgrounds) images(ctx context.Context) ([]string, error) {
	h.lock.RLock()
	if len(h.list) > 0 {
		defer h.lock.RUnlock()
		return h.list, nil
	}
	h.lock.RUnlock()
	h.lock.Lock() // want `mutex held across a network wait on every request: h.lock \(sync.RWMutex\) is shared by every request to \(\*mutexq.Backgrounds\).ServeHTTP, and this Lock holds it across \(\*http.Client\).Do`
	defer h.lock.Unlock()
	c := http.Client{Timeout: time.Minute}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "https://images.example.com/index", nil)
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	h.list = []string{"a"}
	return h.list, nil
}

// tokenMu is a package variable: every request to Token shares it, and
// the Unlock comes after the call.
var tokenMu sync.Mutex

func Token(w http.ResponseWriter, r *http.Request) { // want Token:"waitsOnNetwork"
	tokenMu.Lock() // want `mutex held across a network wait on every request: tokenMu \(sync.Mutex\) is shared by every request to mutexq.Token, and this Lock holds it across http.Get`
	resp, err := http.Get("https://auth.example.com/token")
	tokenMu.Unlock()
	if err == nil {
		resp.Body.Close()
	}
}

// Authn is permify's shape: an authenticator reads the incoming gRPC
// request's metadata (so it runs per request, whatever calls it), hands a
// key function to a parser, and the key function refreshes the key set
// (another package's HTTP call) under the authenticator's mutex.
type Authn struct {
	keys *jwks.Set
	mu   sync.Mutex
	hits int
}

func (a *Authn) Authenticate(ctx context.Context) error { // want Authenticate:"waitsOnNetwork"
	md, _ := metadata.FromIncomingContext(ctx)
	return parse(md["authorization"], func(kid string) error {
		return a.key(ctx, kid)
	})
}

// Keyfunc is a named func type: a literal passed as one is converted.
type Keyfunc func(kid string) error

func parse(tokens []string, keyFunc Keyfunc) error {
	for _, t := range tokens {
		if err := keyFunc(t); err != nil {
			return err
		}
	}
	return nil
}

func (a *Authn) key(ctx context.Context, kid string) error { // want key:"waitsOnNetwork"
	a.mu.Lock() // in-memory work only: released before the fetch
	a.hits++
	a.mu.Unlock()
	if a.keys.Lookup(kid) {
		return nil
	}
	a.mu.Lock() // want `mutex held across a network wait on every request: a.mu \(sync.Mutex\) is shared by every request to \(\*mutexq.Authn\).Authenticate, and this Lock holds it across \(\*jwks.Set\).Refresh`
	if a.hits > 10 {
		a.mu.Unlock()
		return errors.New("backoff")
	}
	err := a.keys.Refresh(ctx)
	a.mu.Unlock()
	return err
}

// Cache is centrifugo's shape: a singleflight per channel in front, then
// one mutex for every channel: requests for other channels queue on it.
type Cache struct {
	group singleflight.Group
	mu    sync.Mutex
}

func (c *Cache) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"waitsOnNetwork"
	ch := r.URL.Query().Get("channel")
	c.group.Do(ch, func() (any, error) {
		c.mu.Lock() // want `mutex held across a network wait on every request: c.mu \(sync.Mutex\) is shared by every request to \(\*mutexq.Cache\).ServeHTTP`
		defer c.mu.Unlock()
		return http.Post("https://origin.example.com/fill?channel="+ch, "text/plain", nil)
	})
}

// Register's handler literal captures a mutex of the function that
// registers it: it outlives every request the handler serves.
func Register(mux *http.ServeMux) { // want Register:"waitsOnNetwork"
	var mu sync.Mutex
	mux.HandleFunc("/refresh", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock() // want `mutex held across a network wait on every request: mu \(sync.Mutex\)`
		defer mu.Unlock()
		http.Get("https://upstream.example.com/refresh")
	})
}

// ---- look-alikes: silent ----

// Guarded fails fast when another request holds the mutex: TryLock never
// queues.
type Guarded struct{ mu sync.Mutex }

func (g *Guarded) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"waitsOnNetwork"
	if !g.mu.TryLock() {
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	defer g.mu.Unlock()
	http.Get("https://upstream.example.com/")
}

// Counter locks around in-memory work only, and calls after the Unlock.
type Counter struct {
	mu   sync.Mutex
	seen map[string]int
}

func (c *Counter) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"waitsOnNetwork"
	c.mu.Lock()
	c.seen[r.URL.Path]++
	n := c.seen[r.URL.Path]
	c.mu.Unlock()
	if n == 1 {
		http.Get("https://audit.example.com/first?path=" + r.URL.Path)
	}
}

// PerKey takes a lock per user, from a map: requests queue only behind
// the same user's.
type PerKey struct {
	guard sync.Mutex
	locks map[string]*sync.Mutex
	byID  sync.Map
}

func (p *PerKey) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"waitsOnNetwork"
	user := r.URL.Query().Get("user")
	p.guard.Lock()
	l, ok := p.locks[user]
	if !ok {
		l = &sync.Mutex{}
		p.locks[user] = l
	}
	p.guard.Unlock()
	l.Lock()
	defer l.Unlock()
	v, _ := p.byID.LoadOrStore(user, &sync.Mutex{})
	m := v.(*sync.Mutex)
	m.Lock()
	defer m.Unlock()
	http.Get("https://profile.example.com/" + user)
}

// Syncer's mutex is taken only by its background loop: one goroutine,
// no queue of requests.
type Syncer struct{ mu sync.Mutex }

func (s *Syncer) Run(ctx context.Context) { // want Run:"waitsOnNetwork" Run:"ignoresContext"
	for ctx.Err() == nil {
		s.mu.Lock()
		http.Get("https://upstream.example.com/sync")
		s.mu.Unlock()
		time.Sleep(time.Minute)
	}
}

// Index fetches under a singleflight with a constant key: one caller at a
// time runs the function, the others wait for its result, not in series.
type Index struct {
	group singleflight.Group
	mu    sync.Mutex
	list  []string
}

func (x *Index) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"waitsOnNetwork"
	x.group.Do("index", func() (any, error) {
		x.mu.Lock()
		defer x.mu.Unlock()
		return http.Get("https://images.example.com/index")
	})
}

// Local's mutex is made per request; session's belongs to a value the
// request creates: neither is shared between requests.
func Local(w http.ResponseWriter, r *http.Request) { // want Local:"waitsOnNetwork"
	var mu sync.Mutex
	mu.Lock()
	http.Get("https://upstream.example.com/")
	mu.Unlock()
	s := &session{}
	s.send()
}

type session struct{ mu sync.Mutex }

func (s *session) send() { // want send:"waitsOnNetwork"
	s.mu.Lock()
	defer s.mu.Unlock()
	http.Get("https://upstream.example.com/send")
}

// Reader holds only a read lock across the call: readers share it.
type Reader struct {
	mu  sync.RWMutex
	url string
}

func (rd *Reader) ServeHTTP(w http.ResponseWriter, r *http.Request) { // want ServeHTTP:"waitsOnNetwork"
	rd.mu.RLock()
	defer rd.mu.RUnlock()
	http.Get(rd.url)
}

// once fetches the configuration a single time.
var once sync.Once

func Config(w http.ResponseWriter, r *http.Request) { // want Config:"waitsOnNetwork"
	once.Do(func() { http.Get("https://config.example.com/") })
}
