package a

//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL loopback sidecar with a 50 ms timeout
func wellFormedIgnore() {}

//bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL // want `ERR_MALFORMED_DIRECTIVE: //bhlint:ignore ERR_CONN_HELD_ACROSS_NETWORK_CALL needs a reason`
func ignoreWithoutReason() {}

//bhlint:ignore held across call // want `malformed //bhlint:ignore: want //bhlint:ignore ERR_CODE reason`
func ignoreWithoutCode() {}

//bhlint:ignore ERR_NOT_A_CODE because // want `names ERR_NOT_A_CODE, which no bhlint analyzer reports`
func ignoreUnknownCode() {}

//bhlint:lane // want `malformed //bhlint:lane: want //bhlint:lane NAME`
func laneWithoutName() {}

//bhlint:lane card_auth
func laneWellFormed() {}

//bhlint:lane Card-Auth // want `malformed //bhlint:lane`
func laneBadName() {}

//bhlint:ingore ERR_CONN_HELD_ACROSS_NETWORK_CALL typo // want `unknown directive //bhlint:ingore`
func typoVerb() {}

//bhlint:verified-compensation table tax_rates_2026 verified by TestTaxTable
func verified() {}

//bhlint:verified-compensation // want `needs a reason`
func verifiedNoReason() {}

// Not directives: prose that mentions bhlint:ignore, and a space after //.
// bhlint:ignore whatever
func prose() {}
