// Package traps holds "not found" branches and verified tables: look-alikes
// of invented fallbacks that must stay silent.
package traps

import (
	"context"
	"database/sql"
	"errors"

	"github.com/bhlint/bhlint/bulkhead/compensation"

	"money"
)

var db *sql.DB

// orderCount: ErrNoRows means "no orders", for a count.
func orderCount(ctx context.Context, customer string) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM orders WHERE customer = $1", customer).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return n, err
}

// storedCredit: no row means no credit yet. "Not found" is an answer, not a
// failed dependency, even for money.
func storedCredit(ctx context.Context, customer string) (money.Cents, error) {
	var credit money.Cents
	err := db.QueryRowContext(ctx, "SELECT credit FROM customers WHERE id = $1", customer).Scan(&credit)
	if err != nil {
		if err == sql.ErrNoRows {
			return 0, nil
		}
		return 0, err
	}
	return credit, nil
}

var rates *compensation.Table

// taxFromVerifiedTable: the fallback serves the verified table.
func taxFromVerifiedTable(ctx context.Context, j string, amount float64, quote func() (float64, error)) (float64, error) {
	tax, err := quote()
	if err != nil {
		rate, lerr := rates.Rate(j)
		if lerr != nil {
			return 0, lerr
		}
		return amount * rate, nil
	}
	return tax, nil
}

// taxRateFromVerifiedTable: the table read is the value returned.
func taxRateFromVerifiedTable(j string, err error) (taxRate float64, _ error) {
	if err != nil {
		return rates.Rate(j)
	}
	return 0.05, nil
}

// feeFromVerifiedTable: a value read from the table, even times a rate.
func feeFromVerifiedTable(j string, err error) (money.Cents, error) {
	if err != nil {
		fee, lerr := rates.Amount(j)
		return money.Cents(fee), lerr
	}
	return 100, nil
}

// bareReturnOfNamedResults mirrors net/http's rangesMIMESize: a bare return
// of named results on a normal path (it once crashed the analyzer).
func bareReturnOfNamedResults(parts []int64) (encSize int64) {
	for _, p := range parts {
		encSize += p
	}
	return
}

// bareReturnAfterError leaves the named tax at its zero value but returns
// the error with it: not a finding.
func bareReturnAfterError(quote func() (int64, error)) (taxCents int64, err error) {
	if taxCents, err = quote(); err != nil {
		return
	}
	return
}

// publishFee returns its error before a retry flag: the zero fee comes with
// the failure, not instead of it.
func publishFee(ctx context.Context, tx string) (fee money.Cents, err error, retry bool) {
	if _, err := db.ExecContext(ctx, "INSERT INTO published (tx) VALUES ($1)", tx); err != nil {
		return 0, errors.New("publishing failed: " + err.Error()), true
	}
	return 120, nil, false
}
