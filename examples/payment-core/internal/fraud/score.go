// Package fraud scores card payments: the fraud lane.
package fraud

import (
	"net/http"
	"strconv"

	"github.com/bhlint/bhlint/examples/payment-core/internal/pools"
)

// Score serves GET /fraud/score from the fraud lane's own pool.
//
//bhlint:lane fraud
func Score(w http.ResponseWriter, r *http.Request) {
	var score int
	err := pools.Fraud.QueryRow(r.Context(), `SELECT score FROM card_scores WHERE card_hash = $1`, r.FormValue("card_hash")).Scan(&score)
	if err != nil {
		http.Error(w, "score unavailable", http.StatusBadGateway)
		return
	}
	w.Write([]byte(strconv.Itoa(score)))
}
