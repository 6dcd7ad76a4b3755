// Package wrap builds the service's dependencies. Of the implementations // want package:`pendingProbes\(probes: ; resolved 0; impls: \(\*pgstore.DB\).Ping\)`
// it sees it passes on to its importers its own module's (the store's),
// not another module's it does not call through (the API client's: Check's
// call resolved here).
package wrap

import (
	"context"

	"example.com/apiclient"
	"example.com/apiclient/httpapi"
	"example.com/probemod/store"
	"example.com/probemod/store/pgstore"
)

type Checker struct{ API apiclient.API }

func NewChecker(base string) *Checker { return &Checker{API: httpapi.New(base)} }

func (c *Checker) Check(ctx context.Context) error { return c.API.Ping(ctx) } // want Check:`reachesShared\(HTTP client Client.hc via \(\*httpapi.Client\).Ping → \(\*httpapi.Client\).get → \(\*http.Client\).Do\)`

func OpenStore(dsn string) (store.Store, error) { return pgstore.Open(dsn) }
