// Package server is the first package that sees both lanes reach the audit pool. // want package:`lanes\(\)`
package server // want `ledger.AuditDB, a database pool with no lane, is reached from lanes card_auth and tax \(lane card_auth by apicard.Capture → ledger.Audit → ledger.AuditDB; lane tax by apitax.Quote → ledger.Audit → ledger.AuditDB\)`

import (
	"apicard"
	"apitax"
)

func Routes() []func(string) { return []func(string){apicard.Capture, apitax.Quote} }
