// Package tax serves tax quotes for orders.
package tax

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/jackc/pgx/v5"

	"github.com/bhlint/bhlint/examples/payment-core/internal/store"
	"github.com/bhlint/bhlint/examples/payment-core/internal/taxclient"
)

// Handler serves POST /tax/quote.
type Handler struct {
	Store  *store.Store
	TaxAPI *taxclient.Client
}

type quoteRequest struct {
	OrderID      string `json:"order_id"`
	Jurisdiction string `json:"jurisdiction"`
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req quoteRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	taxCents, err := h.quote(r.Context(), req)
	if err != nil {
		http.Error(w, "quote failed", http.StatusBadGateway)
		return
	}
	json.NewEncoder(w).Encode(map[string]int64{"tax_cents": taxCents})
}

// quote is the incident's shape: the order row is locked and the
// transaction open while the tax API is called. When the tax API slows to
// 8 s, every connection of the pool waits on it.
func (h *Handler) quote(ctx context.Context, req quoteRequest) (int64, error) {
	var taxCents int64
	err := h.Store.InTx(ctx, func(tx pgx.Tx) error {
		amount, err := store.LockOrder(ctx, tx, req.OrderID)
		if err != nil {
			return err
		}
		taxCents, err = h.TaxAPI.Quote(ctx, req.Jurisdiction, amount)
		if err != nil {
			return err
		}
		return store.SaveQuote(ctx, tx, req.OrderID, taxCents)
	})
	return taxCents, err
}
