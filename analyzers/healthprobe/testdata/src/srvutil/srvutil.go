// Package srvutil runs a server whose /healthz calls a function its
// caller stores in an exported field (trillian's cmd/internal/serverutil).
package srvutil

import (
	"context"
	"net/http"
	"sync/atomic"
)

type Main struct {
	// IsHealthy is called on every /healthz.
	IsHealthy func(context.Context) error // want IsHealthy:`probeField\(health \(\*srvutil.Main\).healthz route "/healthz"\)`
	// OnStart is called once, before serving: no probe calls it.
	OnStart func(context.Context) error
	// Background runs in a goroutine the probe does not wait for.
	Background func(context.Context) error
	// check is set by this package only.
	check func(context.Context) error
	ok    atomic.Bool
}

func (m *Main) healthz(w http.ResponseWriter, r *http.Request) {
	go m.Background(context.Background())
	if m.IsHealthy != nil {
		if err := m.IsHealthy(r.Context()); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
	}
	w.Write([]byte("ok"))
}

// readyz calls a field this package sets to a cached status: silent.
func (m *Main) readyz(w http.ResponseWriter, r *http.Request) {
	if err := m.check(r.Context()); err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
}

func (m *Main) cached(context.Context) error {
	if !m.ok.Load() {
		return context.DeadlineExceeded
	}
	return nil
}

func (m *Main) Run(ctx context.Context) error {
	if err := m.OnStart(ctx); err != nil {
		return err
	}
	m.check = m.cached
	http.HandleFunc("/healthz", m.healthz)
	http.HandleFunc("/readyz", m.readyz)
	return http.ListenAndServe(":8080", nil)
}
