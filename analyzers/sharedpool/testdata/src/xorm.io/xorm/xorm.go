// Package xorm is a stub of xorm.io/xorm.
package xorm

type Engine struct{}

type EngineGroup struct {
	*Engine
	slaves []*Engine
}

type Session struct{}

func NewEngine(driverName, dataSourceName string) (*Engine, error) { return &Engine{}, nil }

func NewEngineGroup(args1 interface{}, args2 interface{}, policies ...interface{}) (*EngineGroup, error) {
	return &EngineGroup{Engine: &Engine{}}, nil
}

func (e *Engine) NewSession() *Session                               { return &Session{} }
func (e *Engine) Exec(sqlOrArgs ...interface{}) (interface{}, error) { return nil, nil }
func (s *Session) Find(rowsSlicePtr interface{}, condiBean ...interface{}) error {
	return nil
}
