// Package health registers the probes. It imports neither implementation: // want package:`pendingProbes\(probes: ; resolved 0; impls: \(\*httpapi.Client\).Ping, \(\*pgstore.DB\).Ping\)`
// the wiring package's facts carry them. It passes on the client's
// implementation of the method it calls through, and its module's.
package health

import (
	"net/http"

	"example.com/apiclient"
	"example.com/probemod/store"
	"example.com/probemod/wrap"
)

type Handler struct {
	API   apiclient.API
	Store store.Store
	Wrap  *wrap.Checker
}

func (h *Handler) Register(mux *http.ServeMux) {
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := h.API.Ping(r.Context()); err != nil { // want `ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN: health probe .* reaches the HTTP client .*\(\*httpapi.Client\).Ping`
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := h.Store.Ping(r.Context()); err != nil { // want `ERR_HEALTH_PROBE_SHARES_FAILURE_DOMAIN: readiness probe .* reaches the database pool DB.db .*\(\*pgstore.DB\).Ping`
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
}
