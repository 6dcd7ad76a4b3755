package tax

import (
	"net/http"
	"strconv"

	"github.com/bhlint/bhlint/examples/payment-core/internal/merchant"
	"github.com/bhlint/bhlint/examples/payment-core/internal/pools"
)

// Estimate serves GET /tax/estimate on the tax lane. It is the seeded
// isolation bug: merchant.Country looks like a harmless helper, but it
// queries the card_auth pool, so a slow tax request holds card-auth
// connections. bhlint reports it as ERR_SHARED_FAILURE_DOMAIN_DETECTED; the
// fix is to read the country from the tax lane's own pool (a replica or a
// copy of the merchant table).
//
//bhlint:lane tax
func Estimate(w http.ResponseWriter, r *http.Request) {
	country, err := merchant.Country(r.Context(), r.FormValue("merchant_id"))
	if err != nil {
		http.Error(w, "merchant lookup failed", http.StatusBadGateway)
		return
	}
	var rateBP int64
	err = pools.Tax.QueryRow(r.Context(), `SELECT rate_bp FROM tax_rates WHERE country = $1`, country).Scan(&rateBP)
	if err != nil {
		http.Error(w, "no tax rate", http.StatusBadGateway)
		return
	}
	w.Write([]byte(strconv.FormatInt(rateBP, 10)))
}
