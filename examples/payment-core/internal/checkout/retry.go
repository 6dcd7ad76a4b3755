// Package checkout prices a basket (items, tax) before card authorisation.
package checkout

import (
	"context"
	"log"
	"time"

	"github.com/bhlint/bhlint/examples/payment-core/internal/taxclient"
)

// Pricer adds tax to a basket.
type Pricer struct {
	Tax *taxclient.Client
}

// TaxFor is the loop of the tax-API incident: when the tax API failed, checkout asked
// again every 50 ms, forever, in step with every other checkout instance,
// and turned 150 req/s into 1,800 req/s against a tax API that was already
// down. bhlint reports it; the fix is a bound and jittered backoff, or
// returning the error so that the tax lane's 503 reaches the client.
func (p *Pricer) TaxFor(ctx context.Context, jurisdiction string, amountCents int64) int64 {
	for {
		taxCents, err := p.Tax.Quote(ctx, jurisdiction, amountCents)
		if err == nil {
			return taxCents
		}
		log.Printf("checkout: tax quote for %s failed, retrying: %v", jurisdiction, err)
		time.Sleep(50 * time.Millisecond)
	}
}
