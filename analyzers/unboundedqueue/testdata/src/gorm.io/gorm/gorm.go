// Package gorm stubs gorm.io/gorm: Open wraps a *sql.DB, DB returns it;
// First runs a query, Where and WithContext only build one.
package gorm

import (
	"context"
	"database/sql"
)

type Dialector interface{ Name() string }

type Config struct{}

type DB struct {
	sqlDB *sql.DB
	Error error
}

func Open(d Dialector, opts ...*Config) (*DB, error) { return &DB{}, nil }

func (db *DB) DB() (*sql.DB, error) { return db.sqlDB, nil }

func (db *DB) First(dest any) *DB { return db }

func (db *DB) Where(query any, args ...any) *DB { return db }

func (db *DB) Limit(n int) *DB { return db }

func (db *DB) Find(dest any, conds ...any) *DB { return db }

func (db *DB) WithContext(ctx context.Context) *DB { return db }

// Debug returns a session on the same pool that logs every statement.
func (db *DB) Debug() *DB { return db }

// Begin starts a transaction; the *DB it returns holds its connection.
func (db *DB) Begin() *DB { return db }

func (db *DB) Transaction(fc func(tx *DB) error) error { return fc(db) }

func (db *DB) Delete(value any, conds ...any) *DB { return db }

func (db *DB) Commit() *DB { return db }

func (db *DB) Rollback() *DB { return db }
