// Package fallbacks holds fallback paths that invent money (reported) beside
// look-alikes that must stay silent.
package fallbacks

import (
	"context"
	"errors"
	"fmt"

	"github.com/bhlint/bhlint/bulkhead"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/fallback"
	"github.com/shopspring/decimal"
	"github.com/sony/gobreaker"

	"money"
)

type taxAPI interface {
	Quote(ctx context.Context, jurisdiction string, amount int64) (int64, error)
	Rate(ctx context.Context, jurisdiction string) (decimal.Decimal, error)
}

var api taxAPI

// ---- error branches ----

func taxFor(ctx context.Context, j string, amount int64) (int64, error) {
	tax, err := api.Quote(ctx, j, amount)
	if err != nil {
		return 0, nil // want `^ERR_UNTESTED_COMPENSATION_REJECTED: on a fallback path \(err != nil\), the value served is the hard-coded 0, with a nil error: an invented tax the caller cannot tell from a real one; return the error instead, or serve a value read from a verified compensation table`
	}
	return tax, nil
}

func namedResultSwallowsError(ctx context.Context, j string) (taxCents int64, err error) {
	taxCents, err = api.Quote(ctx, j, 100)
	if err != nil {
		taxCents = 0 // want `fallback path \(err != nil\), the value served as taxCents is the hard-coded 0, with a nil error: an invented tax`
		err = nil
	}
	return
}

func rateSetOnBranchReturnedAfter(ctx context.Context, j string) (float64, error) {
	rate := 0.0725
	d, err := api.Rate(ctx, j)
	if err != nil {
		rate = 0 // want `fallback path \(err != nil\), the value served as rate is the hard-coded 0, with a nil error: an invented rate`
	} else {
		rate = d.InexactFloat64()
	}
	return rate, nil
}

func elseOfErrNil(ctx context.Context, j string) (money.Cents, error) {
	if tax, err := api.Quote(ctx, j, 100); err == nil {
		return money.Cents(tax), nil
	} else {
		return money.Cents(0), nil // want `fallback path \(the else branch of err == nil\), the value served is the hard-coded money.Cents\(0\)`
	}
}

func priceWithoutErrorResult(ctx context.Context, j string) money.Cents {
	tax, err := api.Quote(ctx, j, 100)
	if err != nil {
		return 0 // want `the value served is the hard-coded 0, with a nil error: an invented price`
	}
	return money.Cents(tax)
}

func quoteLeavesTaxZero(ctx context.Context, id, j string) (money.Quote, error) {
	tax, err := api.Quote(ctx, j, 100)
	if err != nil {
		return money.Quote{OrderID: id, Currency: "USD"}, nil // want `the value served is a money.Quote literal that leaves TaxCents zero, with a nil error: an invented tax`
	}
	return money.Quote{OrderID: id, TaxCents: money.Cents(tax), Currency: "USD"}, nil
}

func zeroValueDeclared(ctx context.Context, j string) (money.Cents, error) {
	var tax money.Cents
	if _, err := api.Quote(ctx, j, 100); err != nil {
		return tax, nil // want `the value served as tax is the zero value of its declaration \(set at line 81\)`
	}
	return tax + 1, nil
}

// ---- breakers and bulkheads ----

var breaker gobreaker.CircuitBreaker

func breakerOpen(ctx context.Context, j string) (decimal.Decimal, error) {
	v, err := breaker.Execute(func() (interface{}, error) { return api.Rate(ctx, j) })
	if errors.Is(err, gobreaker.ErrOpenState) {
		return decimal.Zero, nil // want `fallback path \(errors.Is\(err, gobreaker.ErrOpenState\): the circuit breaker is open\), the value served is the hard-coded decimal.Zero`
	}
	if err != nil {
		return decimal.Decimal{}, err
	}
	return v.(decimal.Decimal), nil
}

func breakerHalfOpen(ctx context.Context, j string) (money.Money, error) {
	_, err := breaker.Execute(func() (interface{}, error) { return nil, nil })
	if err == gobreaker.ErrTooManyRequests {
		return money.Money{}, nil // want `fallback path \(err == gobreaker.ErrTooManyRequests: the half-open circuit breaker refused the call\), the value served is the hard-coded money.Money{}`
	}
	return money.Money{Units: 1, Currency: "EUR"}, err
}

func breakerSwitch(ctx context.Context, j string) (money.Cents, error) {
	_, err := breaker.Execute(func() (interface{}, error) { return nil, nil })
	switch err {
	case nil:
		return 1, nil
	case gobreaker.ErrOpenState:
		return 0, nil // want `fallback path \(switch err case gobreaker.ErrOpenState: the circuit breaker is open\), the value served is the hard-coded 0`
	}
	return 0, err
}

func laneRejected(ctx context.Context, amount float64, err error) (float64, error) {
	if rej, ok := bulkhead.AsRejection(err); ok {
		_ = rej
		return amount * 0.0725, nil // want `fallback path \(bulkhead.AsRejection\(err\): the lane rejected the work\), the value served is amount \* 0.0725, an amount times the hard-coded rate 0.0725`
	}
	return 0, err
}

func laneRejectedAs(ctx context.Context, err error) (money.Cents, error) {
	var rej *bulkhead.Rejection
	if errors.As(err, &rej) {
		return money.Cents(0), nil // want `fallback path \(errors.As\(err, &rej\): the lane rejected the work\), the value served is the hard-coded money.Cents\(0\)`
	}
	return 0, err
}

func typeSwitchOnError(err error) (taxRate float64, _ error) {
	switch err.(type) {
	case *bulkhead.Rejection:
		return 0.08, nil // want `fallback path \(case \*bulkhead.Rejection: the lane rejected the work\), the value served as taxRate is the hard-coded 0.08`
	}
	return 0, err
}

// ---- registered fallbacks ----

var taxFallback = fallback.NewWithFunc(func(exec failsafe.Execution[decimal.Decimal]) (decimal.Decimal, error) {
	return decimal.NewFromFloat(0.07), nil // want `fallback path \(registered as a fallback with fallback.NewWithFunc\), the value served is the hard-coded decimal.NewFromFloat\(0.07\), with a nil error: an invented tax`
})

var feeFallback = fallback.NewWithResult[money.Cents](250) // want `fallback.NewWithResult serves the hard-coded 250 as the result of every failed call`

func flatShippingFee(exec failsafe.Execution[money.Cents]) (money.Cents, error) {
	return 499, nil // want `fallback path \(registered as a fallback with fallback.NewWithFunc\), the value served is the hard-coded 499, with a nil error: an invented fee`
}

var shippingFallback = fallback.NewWithFunc(flatShippingFee)

// ---- recover ----

func settleTotal(ctx context.Context, lines []decimal.Decimal) (total decimal.Decimal, err error) {
	defer func() {
		if r := recover(); r != nil {
			total = decimal.Zero // want `fallback path \(recover\(\) in a deferred function\), the value served as total is the hard-coded decimal.Zero`
		}
	}()
	for _, l := range lines {
		total = total.Add(l)
	}
	return total, nil
}

// ---- traps: the same shapes, silent ----

func zeroWithError(ctx context.Context, j string) (int64, error) {
	taxCents, err := api.Quote(ctx, j, 100)
	if err != nil {
		return 0, err
	}
	return taxCents, nil
}

func zeroWithWrappedError(ctx context.Context, j string) (money.Cents, error) {
	taxCents, err := api.Quote(ctx, j, 100)
	if err != nil {
		return 0, fmt.Errorf("tax quote for %s: %w", j, err)
	}
	return money.Cents(taxCents), nil
}

func branchEndsInReturn(ctx context.Context, j string) (taxCents int64, err error) {
	taxCents, err = api.Quote(ctx, j, 100)
	if err != nil {
		taxCents = 0
		return 0, err
	}
	return taxCents, nil
}

func recoverSetsError(ctx context.Context) (total decimal.Decimal, err error) {
	defer func() {
		if r := recover(); r != nil {
			total = decimal.Zero
			err = fmt.Errorf("settling panicked: %v", r)
		}
	}()
	return decimal.NewFromInt(1), nil
}

func retryCount(ctx context.Context, j string) (int, error) {
	attempts := 0
	if _, err := api.Quote(ctx, j, 100); err != nil {
		return 0, nil // a count, not money
	}
	return attempts, nil
}

func itemCount(err error) (money.Count, error) {
	if err != nil {
		return 0, nil // Count is not money
	}
	return 1, nil
}

func isTaxable(ctx context.Context, j string) (bool, error) {
	if _, err := api.Quote(ctx, j, 100); err != nil {
		return false, nil // a boolean defaulting to false
	}
	return true, nil
}

func sampleRate(err error) (float64, error) {
	if err != nil {
		return 0.1, nil // a sampling rate is not money
	}
	return 1, nil
}

func requestRate(err error) (rate int, _ error) {
	if err != nil {
		return 0, nil // an integer rate is requests, not money
	}
	return 100, nil
}

func cachedPrice(err error) (money.Cents, bool) {
	if err != nil {
		return 0, false // found=false tells the caller there is no price
	}
	return 100, true
}

type config struct{ ServeStaleBanner bool }

func bannerText(cfg config, err error) (string, error) {
	if err != nil && cfg.ServeStaleBanner {
		return "Prices may be out of date", nil // config-gated, not money
	}
	return "", err
}

func smallOrderExempt(amount int64) (taxCents int64, err error) {
	if amount < 100 {
		return 0, nil // a business rule on the success path, not a fallback
	}
	return amount / 10, nil
}

func breakerOpenReturnsError(ctx context.Context, j string) (decimal.Decimal, error) {
	_, err := breaker.Execute(func() (interface{}, error) { return nil, nil })
	if errors.Is(err, gobreaker.ErrOpenState) {
		return decimal.Zero, fmt.Errorf("tax unavailable, retry later: %w", err)
	}
	return decimal.NewFromInt(1), nil
}

var errorFallback = fallback.NewWithError[money.Cents](errors.New("tax unavailable"))

func overwrittenAfterBranch(ctx context.Context, j string, rates map[string]float64) (taxRate float64, _ error) {
	d, err := api.Rate(ctx, j)
	if err != nil {
		taxRate = 0
	}
	taxRate = rates[j] + d.InexactFloat64()
	return taxRate, nil
}

// ---- hard-coded tables: a table no contract test verifies ----

var staticTaxRates = map[string]float64{"US-CA": 0.0725, "US-NY": 0.04}

var jurisdictionNames = map[string]string{"US-CA": "California"}

func taxFromStaticTable(ctx context.Context, j string, amount float64) (float64, error) {
	tax, err := api.Quote(ctx, j, int64(amount))
	if err != nil {
		return amount * staticTaxRates[j], nil // want `the value served is amount \* staticTaxRates\[j\], an amount times a rate from the hard-coded table staticTaxRates that no contract test verifies`
	}
	return float64(tax), nil
}

func taxRateCommaOk(ctx context.Context, j string) (taxRate float64, err error) {
	if _, err := api.Rate(ctx, j); err != nil {
		rate, ok := staticTaxRates[j]
		if !ok {
			return 0, err
		}
		return rate, nil // want `the value served as rate is staticTaxRates\[j\], from the hard-coded table staticTaxRates`
	}
	return 0.05, nil
}

// A hard-coded table of names is not money.
func jurisdictionName(j string, err error) (string, error) {
	if err != nil {
		return jurisdictionNames[j], nil
	}
	return j, nil
}
