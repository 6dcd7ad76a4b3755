package tax

import (
	"context"
	"embed"
	"errors"
	"math"

	"github.com/bhlint/bhlint/bulkhead/compensation"

	"github.com/bhlint/bhlint/examples/payment-core/internal/taxclient"
)

// The compensation table is compiled into the binary with its verification
// record; TestRatesContract (fallback_test.go) checks every rate against the
// published rates within ±0.5% and writes the record.
//
//go:embed rates/us_sales_tax.json rates/us_sales_tax.json.verified
var ratesFS embed.FS

// LoadRates loads the verified rate table. It refuses a table edited after
// its contract test, so an unverified rate cannot reach production.
func LoadRates() (*compensation.Table, error) {
	return compensation.LoadFS(ratesFS, "rates/us_sales_tax.json")
}

// Fallback quotes tax from the tax API and, when the API fails or its lane
// sheds, from the verified rate table.
type Fallback struct {
	API   *taxclient.Client
	Rates *compensation.Table
}

// TaxCents is the tax lane's fallback done right: a failed quote is served
// from the verified table, and a jurisdiction the table does not cover
// fails the request instead of inventing a rate.
func (f *Fallback) TaxCents(ctx context.Context, jurisdiction string, amountCents int64) (int64, error) {
	taxCents, err := f.API.Quote(ctx, jurisdiction, amountCents)
	if err != nil {
		rate, lookupErr := f.Rates.Rate(jurisdiction)
		if lookupErr != nil {
			return 0, errors.Join(err, lookupErr)
		}
		return int64(math.Round(float64(amountCents) * rate)), nil
	}
	return taxCents, nil
}

// QuoteOffline is the compensation the incident review found:
// when the tax API fails fast it answers 0% tax for every jurisdiction, and
// every order settles with a tax nobody can reconcile. bhlint reports it;
// Fallback.TaxCents is the fix.
func QuoteOffline(ctx context.Context, api *taxclient.Client, jurisdiction string, amountCents int64) (taxCents int64, err error) {
	taxCents, err = api.Quote(ctx, jurisdiction, amountCents)
	if err != nil {
		return 0, nil
	}
	return taxCents, nil
}
