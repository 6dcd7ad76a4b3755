package catalog

import (
	"go/types"
	"slices"
	"testing"
)

func TestWords(t *testing.T) {
	for name, want := range map[string][]string{
		"taxRateUSD":  {"tax", "rate", "usd"},
		"total_cents": {"total", "cents"},
		"syntax":      {"syntax"},
		"HTTPFee2":    {"http", "fee"},
		"VATAmount":   {"vat", "amount"},
	} {
		if got := Words(name); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestNameIsMoney(t *testing.T) {
	i64 := types.Typ[types.Int64]
	f64 := types.Typ[types.Float64]
	for _, c := range []struct {
		name string
		t    types.Type
		want bool
	}{
		{"taxCents", i64, true},
		{"shippingFee", f64, true},
		{"rate", f64, true},
		{"rate", i64, false}, // requests a second
		{"total", types.Typ[types.Int], false},
		{"totalPrice", i64, true},
		{"sampleRate", f64, false},
		{"totalCount", i64, false},
		{"rateLimit", f64, false},
		{"syntax", i64, false},
		{"taxable", types.Typ[types.Bool], false},
		{"taxID", types.Typ[types.String], false},
	} {
		if got := Money.NameIsMoney(c.name, c.t); got != c.want {
			t.Errorf("NameIsMoney(%q, %s) = %v, want %v", c.name, c.t, got, c.want)
		}
	}
}

func TestTypeIsMoney(t *testing.T) {
	pkg := types.NewPackage("example.com/billing", "billing")
	named := func(name string, u types.Type) types.Type {
		return types.NewNamed(types.NewTypeName(0, pkg, name, nil), u, nil)
	}
	decimalPkg := types.NewPackage("github.com/shopspring/decimal", "decimal")
	decimal := types.NewNamed(types.NewTypeName(0, decimalPkg, "Decimal", nil), types.NewStruct(nil, nil), nil)
	for _, c := range []struct {
		t    types.Type
		want bool
	}{
		{named("Cents", types.Typ[types.Int64]), true},
		{named("TaxAmount", types.NewStruct(nil, nil)), true},
		{types.NewPointer(named("Money", types.NewStruct(nil, nil))), true},
		{decimal, true},
		{named("RetryCount", types.Typ[types.Int]), false},
		{named("PriceList", types.NewSlice(types.Typ[types.Int])), false},
		{named("Currency", types.Typ[types.String]), false},
	} {
		if got := Money.TypeIsMoney(c.t); got != c.want {
			t.Errorf("TypeIsMoney(%s) = %v, want %v", c.t, got, c.want)
		}
	}
}
