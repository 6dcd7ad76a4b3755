// Package decimal is a stub of github.com/shopspring/decimal for tests.
package decimal

type Decimal struct {
	value int64
	exp   int32
}

var Zero = New(0, 1)

func New(value int64, exp int32) Decimal  { return Decimal{value, exp} }
func NewFromInt(value int64) Decimal      { return Decimal{value, 0} }
func NewFromFloat(value float64) Decimal  { return Decimal{int64(value), 0} }
func (d Decimal) Mul(d2 Decimal) Decimal  { return d }
func (d Decimal) Add(d2 Decimal) Decimal  { return d }
func (d Decimal) IsZero() bool            { return d.value == 0 }
func (d Decimal) InexactFloat64() float64 { return float64(d.value) }
