// Package ledger holds the pools; its helpers are called from every lane.
package ledger

import "database/sql"

// CardDB is card authorisation's own pool.
//
//bhlint:lane card_auth
var CardDB *sql.DB // want CardDB:`lane\(card_auth\)`

var TaxDB *sql.DB /* want TaxDB:`lane\(tax\)` */ //bhlint:lane tax

// AuditDB has no lane: every lane that writes the audit trail shares it.
var AuditDB *sql.DB

// Store carries a laned pool in a struct field, and an unlaned one.
type Store struct {
	Fraud *sql.DB /* want Fraud:`lane\(fraud\)` */ //bhlint:lane fraud
	DB    *sql.DB
}

// MerchantOf is the first hop of the three-call path.
func MerchantOf(id string) string { // want MerchantOf:`reaches\(ledger.CardDB\(card_auth\)\)`
	return merchantRow(id)
}

func merchantRow(id string) string {
	var name string
	CardDB.QueryRow("SELECT name FROM merchants WHERE id = $1", id).Scan(&name)
	return name
}

// TaxRate only touches the tax pool.
func TaxRate(region string) (rate float64) { // want TaxRate:`reaches\(ledger.TaxDB\(tax\)\)`
	TaxDB.QueryRow("SELECT rate FROM rates WHERE region = $1", region).Scan(&rate)
	return rate
}

// Audit writes to the shared audit pool.
func Audit(event string) { // want Audit:`reaches\(ledger.AuditDB\(no lane\)\)`
	AuditDB.Exec("INSERT INTO audit (event) VALUES ($1)", event)
}

// FraudScore reads through the struct-field pools.
func (s *Store) FraudScore(card string) (score int) { // want FraudScore:`reaches\(ledger.Store.DB\(no lane\), ledger.Store.Fraud\(fraud\)\)`
	s.Fraud.QueryRow("SELECT score FROM scores WHERE card = $1", card).Scan(&score)
	s.DB.Exec("INSERT INTO lookups (card) VALUES ($1)", card)
	return score
}
