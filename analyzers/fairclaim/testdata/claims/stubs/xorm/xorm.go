// Package xorm is a stub of xorm.io/xorm with the declarations the tests use.
package xorm

type Engine struct{}

type Session struct{}

func (e *Engine) Where(query interface{}, args ...interface{}) *Session { return nil }
func (e *Engine) Asc(colNames ...string) *Session                       { return nil }
func (e *Engine) ID(id interface{}) *Session                            { return nil }

func (s *Session) Where(query interface{}, args ...interface{}) *Session         { return s }
func (s *Session) And(query interface{}, args ...interface{}) *Session           { return s }
func (s *Session) Asc(colNames ...string) *Session                               { return s }
func (s *Session) Desc(colNames ...string) *Session                              { return s }
func (s *Session) OrderBy(order interface{}, args ...interface{}) *Session       { return s }
func (s *Session) ID(id interface{}) *Session                                    { return s }
func (s *Session) Cols(columns ...string) *Session                               { return s }
func (s *Session) Limit(limit int, start ...int) *Session                        { return s }
func (s *Session) Find(rowsSlicePtr interface{}, condiBean ...interface{}) error { return nil }
func (s *Session) Get(beans ...interface{}) (bool, error)                        { return false, nil }
func (s *Session) Update(bean interface{}, condiBean ...interface{}) (int64, error) {
	return 0, nil
}
