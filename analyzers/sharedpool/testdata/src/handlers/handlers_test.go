package handlers

import "ledger"

// Tests are not lanes, even with a directive.
//
//bhlint:lane tax
func quoteForTest() string { return ledger.MerchantOf("m") }
