// Package gorm stubs gorm.io/gorm: Open wraps a *sql.DB, DB returns it.
package gorm

import "database/sql"

type Dialector interface{ Name() string }

type Config struct{}

type DB struct{ sqlDB *sql.DB }

func Open(d Dialector, opts ...*Config) (*DB, error) { return &DB{}, nil }

func (db *DB) DB() (*sql.DB, error) { return db.sqlDB, nil }

func (db *DB) First(dest any) *DB { return db }

// Debug returns a session on the same pool that logs every statement.
func (db *DB) Debug() *DB { return db }
