// Package api serves the card and tax lanes.
package api

import (
	"context"
	"net/http"

	"github.com/bhlint/bhlint/bulkhead"

	"example.com/sharedpool/db"
)

// CardAuth is the card authorisation lane.
type CardAuth struct{}

func (CardAuth) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{MaxConcurrent: 75} }

var cardLane = bulkhead.MustExecutor[CardAuth]()

// Authorize runs in lane card_auth through its executor.
func Authorize(ctx context.Context, merchant string) error {
	return cardLane.Do(ctx, func(ctx context.Context) error {
		if _, err := db.MerchantCountry(ctx, merchant); err != nil {
			return err
		}
		return db.WriteAudit(ctx, "authorize "+merchant)
	})
}

// Quote is the tax lane; it reaches the card pool through a helper.
//
//bhlint:lane tax
func Quote(ctx context.Context, merchant string) (int64, error) {
	country, err := db.MerchantCountry(ctx, merchant)
	if err != nil {
		return 0, err
	}
	if err := db.WriteAudit(ctx, "quote "+merchant); err != nil {
		return 0, err
	}
	return db.TaxRate(ctx, country)
}

var sharedTransport = &http.Transport{MaxConnsPerHost: 50}

// IssuerClient calls the card issuer.
//
//bhlint:lane card_auth
var IssuerClient = &http.Client{Transport: sharedTransport}

// TaxAPIClient calls the tax API, over the same transport.
//
//bhlint:lane tax
var TaxAPIClient = &http.Client{Transport: sharedTransport}
