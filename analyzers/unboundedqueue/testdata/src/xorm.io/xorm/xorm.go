// Package xorm stubs xorm.io/xorm: the Engine forwards SetMaxOpenConns to
// its *sql.DB.
package xorm

type Engine struct{ max int }

func NewEngine(driverName, dataSourceName string) (*Engine, error) { return &Engine{}, nil }

func (e *Engine) SetMaxOpenConns(n int) { e.max = n }

func (e *Engine) SetMaxIdleConns(n int) {}

// Session is a statement being built, on the engine's pool.
type Session struct{ e *Engine }

func (e *Engine) Context(ctx any) *Session           { return &Session{e} }
func (e *Engine) Where(q any, args ...any) *Session  { return &Session{e} }
func (e *Engine) Insert(beans ...any) (int64, error) { return 0, nil }

// Transaction begins a session on the engine's own background context and
// runs f in it.
func (e *Engine) Transaction(f func(*Session) (any, error)) (any, error) { return f(&Session{e}) }

func (s *Session) Context(ctx any) *Session           { return s }
func (s *Session) Where(q any, args ...any) *Session  { return s }
func (s *Session) Get(beans ...any) (bool, error)     { return false, nil }
func (s *Session) Insert(beans ...any) (int64, error) { return 0, nil }
