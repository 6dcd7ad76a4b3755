// Package money declares the money types the other test packages use, so
// that money is recognised by type across packages.
package money

// Cents is an amount in minor units.
type Cents int64

// Money is an amount with its currency.
type Money struct {
	Units    int64
	Currency string
}

// Quote is what the tax lane answers.
type Quote struct {
	OrderID  string
	TaxCents Cents
	Currency string
}

// Count is not money, whatever it counts.
type Count int
