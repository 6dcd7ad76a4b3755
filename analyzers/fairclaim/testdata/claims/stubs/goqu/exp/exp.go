// Package exp is a stub of github.com/doug-martin/goqu/v9/exp.
package exp

type Expression interface{}

type WaitOption int

const (
	Wait WaitOption = iota
	NoWait
	SkipLocked
)

type Ex map[string]interface{}

type OrderedExpression interface{}

type BooleanExpression interface{}

type IdentifierExpression interface {
	Asc() OrderedExpression
	Desc() OrderedExpression
	Eq(v interface{}) BooleanExpression
	Neq(v interface{}) BooleanExpression
	In(v ...interface{}) BooleanExpression
}
