// Command modprobe pings the sanctions service from its liveness probe, // want package:`pendingProbes\(probes: ; resolved 0; impls: \(\*lists.moovClient\).Ping, \(\*lists.moovClient\).Search\)`
// through the client module every search request also uses.
package main

import (
	"context"
	"net/http"
	"time"

	"example.com/apiclient"
	"example.com/modprobe/lists"
)

type sanctions struct{ api *apiclient.Client }

func (s *sanctions) Ping() error { // want Ping:`reachesShared\(HTTP client http.DefaultClient via \(\*apiclient.Client\).Ping`
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return s.api.Ping(ctx) // the module's own call into the client: the line a fix changes
}

func main() {
	s := &sanctions{api: &apiclient.Client{BaseURL: "http://sanctions"}}
	mux := http.NewServeMux()
	mux.HandleFunc("/livez", func(w http.ResponseWriter, r *http.Request) {
		if err := s.Ping(); err != nil { // want `liveness probe the func literal in main.main \(route "/livez"\) reaches the HTTP client http.DefaultClient`
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
		}
	})
	sanctionLists := lists.NewClient("http://lists")
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := sanctionLists.Ping(); err != nil { // want `readiness probe the func literal in main.main \(route "/readyz"\) reaches the HTTP client http.DefaultClient`
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
		}
	})
	mux.HandleFunc("/lists", func(w http.ResponseWriter, r *http.Request) {
		_ = sanctionLists.Search(r.Context(), r.URL.Query().Get("name"))
	})
	mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		if err := s.api.Search(r.Context(), r.URL.Query().Get("name")); err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
		}
	})
	_ = http.ListenAndServe(":8080", mux)
}
