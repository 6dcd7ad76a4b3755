// Package handlers holds the lanes' entry points, declared by directives. // want package:`lanes\(handlers.QuoteHandler@tax, handlers.Authorize@card_auth, handlers.scoreHandler@fraud, handlers.refundTax@tax, handlers.recordAuth@card_auth, handlers.recordTax@tax, handlers.fraudLookup@fraud, \(\*handlers.QuoteServer\).Quote@tax, handlers.quoteBatch@tax\)`
package handlers

import "ledger"

// QuoteHandler is the incident: the tax lane calls a helper that reaches
// the card-auth pool three calls down, in another package.
//
//bhlint:lane tax
func QuoteHandler(merchant string) string { // want QuoteHandler:`reaches\(ledger.CardDB\(card_auth\), ledger.TaxDB\(tax\)\)`
	ledger.TaxRate("eu")
	return ledger.MerchantOf(merchant) // want `lane tax reaches ledger.CardDB, the database pool of lane card_auth, by QuoteHandler → ledger.MerchantOf → ledger.merchantRow → ledger.CardDB`
}

// Authorize reaches the fraud lane's pool through a laned struct field.
//
//bhlint:lane card_auth
func Authorize(s *ledger.Store, card string) int { // want Authorize:`reaches\(ledger.CardDB\(card_auth\), ledger.Store.DB\(no lane\), ledger.Store.Fraud\(fraud\)\)`
	ledger.MerchantOf(card)   // its own lane's pool: silent
	return s.FraudScore(card) // want `lane card_auth reaches ledger.Store.Fraud, the database pool of lane fraud, by Authorize → \(\*ledger.Store\).FraudScore → ledger.Store.Fraud`
}

// scoreHandler is the fraud lane on its own field; the unlaned field
// ledger.Store.DB may be a different pool per instance, so it is not shared.
//
//bhlint:lane fraud
func scoreHandler(s *ledger.Store, card string) int {
	return s.FraudScore(card)
}

// taxOnly is a helper called by one lane only.
func taxOnly() float64 { return ledger.TaxRate("us") }

//bhlint:lane tax
func refundTax() float64 { return taxOnly() }

// nightlyBatch is reachable from no entry point: unlaned code may touch
// any pool.
func nightlyBatch() {
	ledger.TaxRate("eu")
	ledger.MerchantOf("m")
}

// The audit pool has no lane and is written by two lanes.
//
//bhlint:lane card_auth
func recordAuth() {
	ledger.Audit("auth") // want `ledger.AuditDB, a database pool with no lane, is reached from lanes card_auth and tax \(lane card_auth by handlers.recordAuth → ledger.Audit → ledger.AuditDB; lane tax by handlers.recordTax → ledger.Audit → ledger.AuditDB\)`
}

//bhlint:lane tax
func recordTax() {
	ledger.Audit("tax")
}

// Suppressed: the team accepts it for now.
//
//bhlint:lane fraud
func fraudLookup() {
	ledger.TaxRate("eu") //bhlint:ignore ERR_SHARED_FAILURE_DOMAIN_DETECTED rates are cached, the pool is only hit on a cold start
}

// QuoteServer's method is an entry point too.
type QuoteServer struct{ Store *ledger.Store }

//bhlint:lane tax
func (q *QuoteServer) Quote(card string) int { // want Quote:`reaches\(ledger.Store.DB\(no lane\), ledger.Store.Fraud\(fraud\)\)`
	return q.Store.FraudScore(card) // want `lane tax reaches ledger.Store.Fraud, the database pool of lane fraud, by \(\*QuoteServer\).Quote → \(\*ledger.Store\).FraudScore → ledger.Store.Fraud`
}

// quoteBatch calls the tax entry point QuoteHandler, where the finding is
// already reported: not again here.
//
//bhlint:lane tax
func quoteBatch(merchants []string) {
	for _, m := range merchants {
		QuoteHandler(m)
	}
}
