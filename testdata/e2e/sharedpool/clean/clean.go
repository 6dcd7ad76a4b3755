// Package clean keeps each lane on its own pool and client.
package clean

import (
	"context"
	"net/http"

	"example.com/sharedpool/db"
)

//bhlint:lane tax
func Quote(ctx context.Context) (int64, error) { return db.TaxRate(ctx, "FR") }

// cardCountry is only called by the card lane.
func cardCountry(ctx context.Context, id string) (string, error) {
	return db.MerchantCountry(ctx, id)
}

//bhlint:lane card_auth
func Authorize(ctx context.Context, id string) error {
	_, err := cardCountry(ctx, id)
	return err
}

// report is reachable from no lane: it may read any pool.
func report(ctx context.Context) {
	db.MerchantCountry(ctx, "m")
	db.TaxRate(ctx, "FR")
}

//bhlint:lane card_auth
var IssuerClient = &http.Client{Transport: &http.Transport{MaxConnsPerHost: 50}}

//bhlint:lane tax
var TaxAPIClient = &http.Client{Transport: &http.Transport{MaxConnsPerHost: 5}}
