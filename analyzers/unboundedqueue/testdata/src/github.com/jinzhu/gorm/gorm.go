// Package gorm stubs github.com/jinzhu/gorm (gorm v1): DB returns the *sql.DB.
package gorm

import "database/sql"

type DB struct{ db *sql.DB }

func Open(dialect string, args ...any) (*DB, error) { return &DB{}, nil }

func (s *DB) DB() *sql.DB { return s.db }
