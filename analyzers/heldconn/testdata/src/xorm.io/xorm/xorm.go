// Package xorm is a stub of xorm.io/xorm with the declarations the cases use.
package xorm

import "database/sql"

type Engine struct{ db *sql.DB }

type Session struct{ db *sql.DB }

func NewEngine(driver, dsn string) (*Engine, error)                      { return &Engine{}, nil }
func (e *Engine) NewSession() *Session                                   { return &Session{} }
func (e *Engine) Insert(beans ...any) (int64, error)                     { return 0, nil }
func (e *Engine) Transaction(f func(*Session) (any, error)) (any, error) { return f(e.NewSession()) }
func (s *Session) Begin() error                                          { return nil }
func (s *Session) Commit() error                                         { return nil }
func (s *Session) Rollback() error                                       { return nil }
func (s *Session) Close() error                                          { return nil }
func (s *Session) Insert(beans ...any) (int64, error)                    { return 0, nil }
func (s *Session) Where(q any, args ...any) *Session                     { return s }
func (s *Session) Get(beans ...any) (bool, error)                        { return false, nil }
