// Package xorm stubs xorm.io/xorm: the Engine forwards SetMaxOpenConns to
// its *sql.DB.
package xorm

type Engine struct{ max int }

func NewEngine(driverName, dataSourceName string) (*Engine, error) { return &Engine{}, nil }

func (e *Engine) SetMaxOpenConns(n int) { e.max = n }

func (e *Engine) SetMaxIdleConns(n int) {}
