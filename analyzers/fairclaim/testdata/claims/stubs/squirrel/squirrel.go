// Package squirrel is a stub of github.com/Masterminds/squirrel with the
// declarations the tests use.
package squirrel

type PlaceholderFormat interface{}

var Dollar PlaceholderFormat

type StatementBuilderType struct{}

var StatementBuilder StatementBuilderType

func (b StatementBuilderType) PlaceholderFormat(f PlaceholderFormat) StatementBuilderType { return b }
func (b StatementBuilderType) Select(columns ...string) SelectBuilder                     { return SelectBuilder{} }

type SelectBuilder struct{}

func Select(columns ...string) SelectBuilder { return SelectBuilder{} }

func (b SelectBuilder) From(from string) SelectBuilder                            { return b }
func (b SelectBuilder) Where(pred interface{}, args ...interface{}) SelectBuilder { return b }
func (b SelectBuilder) OrderBy(orderBys ...string) SelectBuilder                  { return b }
func (b SelectBuilder) Suffix(sql string, args ...interface{}) SelectBuilder      { return b }
func (b SelectBuilder) Limit(limit uint64) SelectBuilder                          { return b }
func (b SelectBuilder) ToSql() (string, []interface{}, error)                     { return "", nil, nil }

type Eq map[string]interface{}

func (b SelectBuilder) Columns(columns ...string) SelectBuilder { return b }
