// Package relay calls through the client's Syncer, whose implementation // want package:`pendingProbes\(probes: ; resolved 0; impls: \(\*httpapi.Client\).Sync\)`
// calls through a hook no package here implements: the call stays open,
// and relay passes on the implementation of the method it calls through
// (Sync, with the hook it calls), none of the client's others.
package relay

import (
	"context"
	"net/http"

	"example.com/apiclient"
	"example.com/apiclient/httpapi"
)

func Relay(ctx context.Context, s apiclient.Syncer) error { return s.Sync(ctx) } // want Relay:`callsThrough\(\(apiclient.Syncer\).Sync\)`

func Start(ctx context.Context, base string, hook apiclient.Hook) error { // want Start:`callsThrough\(relay.Relay → \(apiclient.Syncer\).Sync\)`
	return Relay(ctx, httpapi.NewSyncer(base, hook))
}

// Status answers in memory: the package imports net/http.
func Status(w http.ResponseWriter) { w.WriteHeader(http.StatusOK) }
