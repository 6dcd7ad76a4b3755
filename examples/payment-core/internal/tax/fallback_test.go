package tax

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/bhlint/bhlint/bulkhead/compensation"

	"github.com/bhlint/bhlint/examples/payment-core/internal/taxclient"
)

// publishedRates is the authority the table is checked against: the states'
// published base rates as of the table's date. A real service fetches or
// vendors the official tables here.
var publishedRates = compensation.Authority{
	Name: "state base sales tax rates, published 2026-10-01",
	Entries: map[string]float64{
		"US-CA": 0.0725, "US-NY": 0.04, "US-TX": 0.0625, "US-WA": 0.065, "US-FL": 0.06,
	},
}

// TestRatesContract is the compensation table's contract test: it fails if a
// rate is more than 0.5% off the authority, and records the verification
// that LoadRates requires.
func TestRatesContract(t *testing.T) {
	compensation.Verify(t, "rates/us_sales_tax.json", publishedRates)
	// From disk: the embedded copy is the one compiled before this run
	// wrote the record, so after editing the table run the tests twice.
	if _, err := compensation.Load("rates/us_sales_tax.json"); err != nil {
		t.Fatal(err)
	}
}

func TestFallbackServesVerifiedTable(t *testing.T) {
	rates, err := LoadRates()
	if err != nil {
		t.Fatal(err)
	}
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close() // the tax API is gone: every quote fails fast
	f := &Fallback{API: taxclient.New(down.URL, time.Second), Rates: rates}

	got, err := f.TaxCents(context.Background(), "US-CA", 10_000)
	if err != nil || got != 725 {
		t.Errorf("TaxCents(US-CA, $100.00) with the API down = %d, %v; want 725 from the verified table", got, err)
	}
	if _, err := f.TaxCents(context.Background(), "US-OR", 10_000); err == nil {
		t.Error("TaxCents for a jurisdiction the table lacks: want an error, not an invented rate")
	}
}
