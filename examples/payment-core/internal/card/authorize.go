// Package card authorises card payments: the card_auth lane.
package card

import (
	"net/http"

	"github.com/bhlint/bhlint/examples/payment-core/internal/merchant"
)

// Authorize serves POST /card/authorize on the card_auth lane's pool.
//
//bhlint:lane card_auth
func Authorize(w http.ResponseWriter, r *http.Request) {
	status, err := merchant.Status(r.Context(), r.FormValue("merchant_id"))
	if err != nil {
		http.Error(w, "merchant lookup failed", http.StatusBadGateway)
		return
	}
	if status != "active" {
		http.Error(w, "merchant not active", http.StatusForbidden)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
