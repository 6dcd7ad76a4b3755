// Package hprobe serves an engine's probes, which ask the repository // want package:`pendingProbes\(probes: the func literal in \(\*hprobe.Health\).Start: \(hrepo.HealthRepository\).Snapshot; resolved 0; impls: \(\*hrepo.healthRepository\).IsHealthy, \(\*hrepo.healthRepository\).Snapshot\)`
// layer whether the database answers (hatchet's internal/services/health).
package hprobe

import (
	"net/http"

	"hrepo"
)

type Health struct {
	repository hrepo.HealthRepository
}

func New(repo hrepo.HealthRepository) *Health { return &Health{repository: repo} }

func (h *Health) Start() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/live", func(w http.ResponseWriter, r *http.Request) {
		if !h.repository.IsHealthy(r.Context()) { // want `liveness probe the func literal in \(\*hprobe.Health\).Start \(route "/live"\) reaches the database pool sharedRepository.pool that request traffic also uses \(the func literal in \(\*hprobe.Health\).Start → \(\*hrepo.healthRepository\).IsHealthy → \(\*sqlcq.Queries\).Health → \(\*pgxpool.Pool\).Query\)`
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	// The snapshot's query runs on memory: silent.
	mux.HandleFunc("/ready", func(w http.ResponseWriter, r *http.Request) {
		if !h.repository.Snapshot(r.Context()) {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	return mux
}
