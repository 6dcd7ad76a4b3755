// Package verified holds fallbacks marked //bhlint:verified-compensation,
// and a malformed or misplaced mark that must not silence anything.
package verified

import (
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/fallback"

	"money"
)

// regionalTaxRate serves the rate of the only jurisdiction the service sells
// in; the value is asserted against the authority in TestRegionalRate.
//
//bhlint:verified-compensation rate pinned by TestRegionalRate against the state's published table
func regionalTaxRate(err error) (float64, error) {
	if err != nil {
		return 0.0725, nil
	}
	return 0.0725, nil
}

// A marked literal: the directive on the line above.
var handlingFee = fallback.NewWithFunc(
	//bhlint:verified-compensation flat handling fee set by contract, checked in TestHandlingFee
	func(exec failsafe.Execution[money.Cents]) (money.Cents, error) {
		return 150, nil
	})

// unmarkedTaxRate: a directive in the body is not a mark on the function.
func unmarkedTaxRate(err error) (float64, error) {
	//bhlint:verified-compensation not here
	if err != nil {
		return 0.0725, nil // want `ERR_UNTESTED_COMPENSATION_REJECTED: on a fallback path \(err != nil\), the value served is the hard-coded 0.0725`
	}
	return 0.08, nil
}

// ignoredTaxRate: the generic suppression works too.
//
//bhlint:ignore ERR_UNTESTED_COMPENSATION_REJECTED the rate is legally fixed for this test jurisdiction
func ignoredTaxRate(err error) (float64, error) {
	if err != nil {
		return 0.0725, nil
	}
	return 0.08, nil
}
