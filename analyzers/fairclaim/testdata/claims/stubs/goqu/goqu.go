// Package goqu is a stub of github.com/doug-martin/goqu/v9.
package goqu

import "github.com/doug-martin/goqu/v9/exp"

type Ex = exp.Ex

type DialectWrapper struct{}

func Dialect(name string) DialectWrapper { return DialectWrapper{} }

func (d DialectWrapper) From(table ...interface{}) *SelectDataset { return &SelectDataset{} }

type SelectDataset struct{}

func From(table ...interface{}) *SelectDataset { return &SelectDataset{} }

func C(col string) exp.IdentifierExpression   { return nil }
func I(ident string) exp.IdentifierExpression { return nil }
func T(table string) exp.IdentifierExpression { return nil }

func (sd *SelectDataset) Select(selects ...interface{}) *SelectDataset        { return sd }
func (sd *SelectDataset) Where(expressions ...exp.Expression) *SelectDataset  { return sd }
func (sd *SelectDataset) Order(order ...exp.OrderedExpression) *SelectDataset { return sd }
func (sd *SelectDataset) Limit(limit uint) *SelectDataset                     { return sd }
func (sd *SelectDataset) ForUpdate(waitOption exp.WaitOption, of ...exp.IdentifierExpression) *SelectDataset {
	return sd
}
func (sd *SelectDataset) ToSQL() (string, []interface{}, error) { return "", nil, nil }
