// Package gorm is a stub of gorm.io/gorm.
package gorm

import "database/sql"

type Dialector interface{ Name() string }

type Config struct{}

type DB struct{}

func Open(dialector Dialector, opts ...*Config) (*DB, error) { return &DB{}, nil }

func (db *DB) DB() (*sql.DB, error) { return nil, nil }
