// Code in a package that cannot carry directives; .bhlint.yml puts its
// exported functions in lane tax.
package legacy

import (
	"context"

	"example.com/e2e/config/pools"
)

func TaxRate(ctx context.Context, region string) (float64, error) {
	var rate float64
	err := pools.CardAuth.QueryRowContext(ctx, "SELECT rate FROM tax WHERE region = $1", region).Scan(&rate)
	return rate, err
}
