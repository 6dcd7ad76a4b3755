package fixedsets

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
)

// ---- a generic type's field set from configuration ----

// ExporterConfig is one exporter of the configuration file.
type ExporterConfig struct{ URL string }

type exporter[T any] struct{ url string }

// manager's consumers are built one per configured exporter; a method of
// manager[T] sees the field of its own instantiation, which is the field
// the constructor's manager[T] wrote: a generic type's field is one field.
type manager[T any] struct{ consumers []*exporter[T] }

func newManager[T any](exporters []ExporterConfig) *manager[T] {
	consumers := make([]*exporter[T], len(exporters))
	for i, e := range exporters {
		consumers[i] = &exporter[T]{url: e.URL}
	}
	return &manager[T]{consumers: consumers}
}

func (m *manager[T]) start(ctx context.Context) {
	for _, c := range m.consumers {
		go post(ctx, c.url) // one per configured exporter: silent
	}
}

// registry's subscribers are appended by a handler: input, generic or not.
type registry[T any] struct{ subs []*exporter[T] }

func (g *registry[T]) subscribe(w http.ResponseWriter, r *http.Request) {
	g.subs = append(g.subs, &exporter[T]{url: r.FormValue("callback")})
}

func (g *registry[T]) broadcast(ctx context.Context) {
	for _, s := range g.subs {
		go post(ctx, s.url) // want `goroutine per item: this go statement starts one goroutine for every element of g.subs`
	}
}

// ---- a type the configuration holds ----

// MonitorConfig is the configuration file's shape. Instance is part of it:
// what the loader fills into an Instance is configuration too.
type MonitorConfig struct {
	Instances []Instance
}

// Instance is one monitored instance, as the operator listed it.
type Instance struct {
	Location      string
	HeartbeatURLs []string
}

func (i *Instance) heartbeat(ctx context.Context) {
	var wg sync.WaitGroup
	for _, u := range i.HeartbeatURLs {
		wg.Add(1)
		go func(u string) { // one per configured heartbeat URL: silent
			defer wg.Done()
			post(ctx, u)
		}(u)
	}
	wg.Wait()
}

// Subscription is decoded from a request's body. A configuration type also
// holds one (the default subscription), but what a handler decodes into
// one is the request's.
type Subscription struct {
	Callbacks []string
}

type WebhookConfig struct {
	Default Subscription
}

func Subscribe(w http.ResponseWriter, r *http.Request) {
	var s Subscription
	if err := json.NewDecoder(r.Body).Decode(&s); err != nil {
		return
	}
	s.fire(r.Context())
}

func (s *Subscription) fire(ctx context.Context) {
	var wg sync.WaitGroup
	for _, u := range s.Callbacks {
		wg.Add(1)
		go func(u string) { // want `goroutine per item: this go statement starts one goroutine for every element of s.Callbacks`
			defer wg.Done()
			post(ctx, u)
		}(u)
	}
	wg.Wait()
}

// ServerConfig carries a dependency the program built: a Hub is not
// configuration because a configuration holds a pointer to one.
type ServerConfig struct {
	Addr string
	Hub  *Hub2
}

type Hub2 struct{ callbacks []string }

func (h *Hub2) Register(w http.ResponseWriter, r *http.Request) {
	h.callbacks = append(h.callbacks, r.FormValue("url"))
}

func (h *Hub2) notify(ctx context.Context) {
	for _, u := range h.callbacks {
		go post(ctx, u) // want `goroutine per item: this go statement starts one goroutine for every element of h.callbacks`
	}
}
