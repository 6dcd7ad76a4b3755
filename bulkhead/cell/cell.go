// Package cell is a thin cell router: it answers which cell (a complete,
// independent copy of the service with its own database) serves a tenant,
// from a small map it keeps in memory, so routing never waits on a
// database, and goes on routing with the last good map while the map's
// source is down.
//
//	r, err := cell.New(ctx, cell.PostgresSource(pool, "cell_map"), cell.Config{Refresh: 30 * time.Second})
//	go r.Run(ctx)                 // reloads every 30 s; a failed load keeps the last good map
//	target := r.Cell("tenant-a")  // a map lookup: no I/O
//
// Tenants are placed explicitly (Map.Tenants), the others go to Map.Default,
// so moving one tenant is one row changed, and a new map moves exactly the
// tenants whose row changed: nothing is rehashed.
//
// A map is checked before it is used: it names at least one cell, every
// tenant's cell and the default are among them, and its version is not
// older than the one in use (a lagging replica cannot roll routing back).
// A map that fails the check is refused like a failed load.
package cell

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Map is one version of the placement.
type Map struct {
	// Version orders maps; 0 means unversioned (always accepted).
	Version int64
	// Cells are the cells' names (or addresses).
	Cells []string
	// Default serves every tenant not in Tenants.
	Default string
	// Tenants places tenants explicitly.
	Tenants map[string]string
}

// check says what is wrong with m as the successor of the map in use.
func (m Map) check(current *Map) error {
	if len(m.Cells) == 0 {
		return errors.New("the map names no cell")
	}
	if !slices.Contains(m.Cells, m.Default) {
		return fmt.Errorf("the default cell %q is not one of the cells %v", m.Default, m.Cells)
	}
	for t, c := range m.Tenants {
		if !slices.Contains(m.Cells, c) {
			return fmt.Errorf("tenant %q is placed in %q, not one of the cells %v", t, c, m.Cells)
		}
	}
	if current != nil && m.Version != 0 && m.Version < current.Version {
		return fmt.Errorf("version %d is older than the map in use (%d)", m.Version, current.Version)
	}
	return nil
}

// Source loads the current map.
type Source interface {
	Load(ctx context.Context) (Map, error)
}

// SourceFunc is a function as a Source.
type SourceFunc func(ctx context.Context) (Map, error)

// Load calls f.
func (f SourceFunc) Load(ctx context.Context) (Map, error) { return f(ctx) }

// Config configures a router.
type Config struct {
	// Refresh is how often Run reloads the map (default 30s).
	Refresh time.Duration
	// LoadTimeout bounds one load (default 5s).
	LoadTimeout time.Duration
	// Logger gets a warning when a load fails (default slog.Default()).
	Logger *slog.Logger
}

// Router routes tenants to cells.
type Router struct {
	src Source
	cfg Config
	cur atomic.Pointer[Map]

	mu     sync.Mutex
	status Status
}

// Status is what the router knows about its map.
type Status struct {
	Version  int64
	LoadedAt time.Time // when the map in use was loaded
	// LastError is the last load's error, nil once a load succeeds;
	// FailingSince is when loads started failing.
	LastError    error
	FailingSince time.Time
}

// New loads the first map; without one it cannot route, so a failure is
// an error.
func New(ctx context.Context, src Source, cfg Config) (*Router, error) {
	if cfg.Refresh <= 0 {
		cfg.Refresh = 30 * time.Second
	}
	if cfg.LoadTimeout <= 0 {
		cfg.LoadTimeout = 5 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	r := &Router{src: src, cfg: cfg}
	if err := r.Refresh(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// Cell is the tenant's cell under the map in use. It reads memory only.
func (r *Router) Cell(tenant string) string {
	m := r.cur.Load()
	if c, ok := m.Tenants[tenant]; ok {
		return c
	}
	return m.Default
}

// Map is the map in use; do not change it.
func (r *Router) Map() *Map { return r.cur.Load() }

// Refresh loads the map once. On failure the map in use stays, and the
// error is returned and kept in Status.
func (r *Router) Refresh(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.LoadTimeout)
	defer cancel()
	m, err := r.src.Load(ctx)
	if err == nil {
		err = m.check(r.cur.Load())
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err != nil {
		err = fmt.Errorf("cell: loading the map: %w", err)
		if r.status.LastError == nil {
			r.status.FailingSince = time.Now()
		}
		r.status.LastError = err
		return err
	}
	r.cur.Store(&m)
	r.status = Status{Version: m.Version, LoadedAt: time.Now()}
	return nil
}

// Status is the router's map status.
func (r *Router) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status
}

// Run refreshes the map every Config.Refresh until ctx ends, logging the
// failures; routing goes on with the last good map meanwhile.
func (r *Router) Run(ctx context.Context) {
	t := time.NewTicker(r.cfg.Refresh)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := r.Refresh(ctx); err != nil && ctx.Err() == nil {
			st := r.Status()
			r.cfg.Logger.Warn("cell map not refreshed; routing with the last good map",
				"err", err, "version", st.Version, "loaded_at", st.LoadedAt, "failing_since", st.FailingSince)
		}
	}
}
