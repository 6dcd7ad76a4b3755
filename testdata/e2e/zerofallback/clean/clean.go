// Package clean has the same shapes as package tax, done right: nothing
// here may be reported.
package clean

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/fallback"
	"github.com/shopspring/decimal"
	"github.com/sony/gobreaker/v2"
)

type API interface {
	Rate(ctx context.Context, jurisdiction string) (decimal.Decimal, error)
}

var breaker = gobreaker.NewCircuitBreaker[decimal.Decimal](gobreaker.Settings{Name: "tax"})

// TaxRate sheds when the breaker is open: the caller answers 503.
func TaxRate(ctx context.Context, api API, jurisdiction string) (decimal.Decimal, error) {
	rate, err := breaker.Execute(func() (decimal.Decimal, error) { return api.Rate(ctx, jurisdiction) })
	if errors.Is(err, gobreaker.ErrOpenState) {
		return decimal.Zero, fmt.Errorf("tax rates unavailable, retry later: %w", err)
	}
	return rate, err
}

// Unavailable fails the call instead of inventing a rate.
var Unavailable = fallback.NewWithError[decimal.Decimal](errors.New("tax unavailable"))

// Cached serves the last rate the API gave, not a constant.
func Cached(last map[string]decimal.Decimal, jurisdiction string) fallback.Fallback[decimal.Decimal] {
	return fallback.NewWithFunc(func(exec failsafe.Execution[decimal.Decimal]) (decimal.Decimal, error) {
		if rate, ok := last[jurisdiction]; ok {
			return rate, nil
		}
		return decimal.Zero, exec.LastError()
	})
}

// OpenOrders counts orders; no row means none.
func OpenOrders(ctx context.Context, db *sql.DB, customer string) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM orders WHERE customer = $1", customer).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, err
}
