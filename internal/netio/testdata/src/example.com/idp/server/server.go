// Package server refreshes tokens through the connector interface; its // want package:`implementedInBuild\(\(example.com/idp/connector.RefreshConnector\).Refresh by \(\*oidc.oidcConnector\).Refresh waits, \(example.com/idp/logs.Logger\).Log by \(stream.Stream\).Log does not wait, \(example.com/idp/logs.Logger\).Log by \(syslogger.Syslog\).Log waits, \(example.com/idp/store.Store\).Password by \(\*memstore.Mem\).Password does not wait\)`
// build includes the connectors (and the test double, which does not
// count), so the call waits on what they call.
package server

import (
	"context"

	"example.com/idp/connector"
	"example.com/idp/connector/mock"
	"example.com/idp/connector/oidc"
	"example.com/idp/connector/static"
	"example.com/idp/connector/traced"
	"example.com/idp/logs"
	"example.com/idp/logs/stream"
	"example.com/idp/logs/syslogger"
	"example.com/idp/store"
	"example.com/idp/store/memstore"
)

var (
	_ = oidc.Open
	_ = mock.Callback{}
	_ = traced.Connector{}
	_ = static.Connector{}
	_ = stream.Stream{}
	_ = syslogger.Syslog{}
	_ = memstore.Mem{}
)

// passwordDB is the local connector: it refreshes from the store, whose
// backend main picks. It waits when the store does, which this package
// cannot tell (the in-memory backend is the only one in sight): it does
// not count against the upstream connectors.
type passwordDB struct{ s store.Store }

func (db passwordDB) Refresh(ctx context.Context, id connector.Identity) (connector.Identity, error) {
	_, err := db.s.Password(id.UserID)
	return id, err
}

func refresh(ctx context.Context, c connector.RefreshConnector, id connector.Identity) error { // want refresh:`mayNetwork\(\(connector.RefreshConnector\).Refresh → \(\*oidc.oidcConnector\).Refresh → \(\*http.Client\).Do\)`
	_, err := c.Refresh(ctx, id)
	return err
}

// logLine writes through a logger that may be the stream's: not a wait.
func logLine(l logs.Logger) { l.Log("refreshed") }

// probe has only the stand-in to run.
func probe(p connector.Prober) bool { return p.Probe() }
