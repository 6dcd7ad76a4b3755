// Package laned declares lanes: a bulkhead executor's and a directive's.
// Its inferred entry points (the handlers) are then left out, as declared
// lanes win.
package laned

import (
	"context"
	"net/http"

	"github.com/bhlint/bhlint/bulkhead"
)

var (
	Fraud  *http.Client // called inside a lane executor's slot
	Ledger *http.Client // called by a declared entry point
)

// Scoring is the fraud lane's type.
type Scoring struct{}

func (Scoring) Spec() bulkhead.LaneSpec { return bulkhead.LaneSpec{Name: "scoring"} }

var scoring, _ = bulkhead.NewExecutor[Scoring]()

// score runs the fraud call in the scoring executor: it holds a slot.
func score(w http.ResponseWriter, r *http.Request) {
	scoring.Do(r.Context(), func(ctx context.Context) error {
		_, err := Fraud.Get("https://fraud.example.com/score")
		return err
	})
}

// rescore is another user of the scoring executor.
func rescore(w http.ResponseWriter, r *http.Request) {
	scoring.Do(r.Context(), func(ctx context.Context) error { return nil })
}

// Settle is the settlement lane's entry point.
//
//bhlint:lane settlement
func Settle(ctx context.Context) error {
	_, err := Ledger.Get("https://ledger.example.com/settle")
	return err
}

// Main registers the handlers.
func Main() {
	http.HandleFunc("/score", score)
	http.HandleFunc("/rescore", rescore)
	http.HandleFunc("/settle", func(w http.ResponseWriter, r *http.Request) { Settle(r.Context()) })
}

// inScoring is a user's wrapper of the scoring executor.
func inScoring(ctx context.Context, fn func(context.Context) error) error {
	return scoring.Do(ctx, fn)
}

// Refund runs its call through the wrapper: it holds a slot of the
// executor too.
//
//bhlint:lane settlement
func Refund(ctx context.Context) error {
	return inScoring(ctx, func(ctx context.Context) error {
		_, err := Ledger.Get("https://ledger.example.com/refund")
		return err
	})
}
