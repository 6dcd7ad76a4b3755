// Package tax has the fallbacks the payment spec forbids, against the real
// gobreaker, shopspring/decimal and failsafe-go modules.
package tax

import (
	"context"
	"errors"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/fallback"
	"github.com/shopspring/decimal"
	"github.com/sony/gobreaker/v2"
)

type API interface {
	Rate(ctx context.Context, jurisdiction string) (decimal.Decimal, error)
}

var breaker = gobreaker.NewCircuitBreaker[decimal.Decimal](gobreaker.Settings{Name: "tax"})

// TaxRate answers 0% tax whenever the breaker is open.
func TaxRate(ctx context.Context, api API, jurisdiction string) (decimal.Decimal, error) {
	rate, err := breaker.Execute(func() (decimal.Decimal, error) { return api.Rate(ctx, jurisdiction) })
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return decimal.Zero, nil
	}
	return rate, err
}

// Estimated serves a flat 7% whenever the call fails.
var Estimated = fallback.NewWithFunc(func(exec failsafe.Execution[decimal.Decimal]) (decimal.Decimal, error) {
	return decimal.NewFromFloat(0.07), nil
})

// Flat registers a flat rate as the fallback result.
var Flat = fallback.NewWithResult(decimal.NewFromFloat(0.05))

// TaxAmount invents the amount on a panic.
func TaxAmount(amount, rate decimal.Decimal) (tax decimal.Decimal, err error) {
	defer func() {
		if r := recover(); r != nil {
			tax = decimal.Zero
		}
	}()
	return amount.Mul(rate), nil
}
