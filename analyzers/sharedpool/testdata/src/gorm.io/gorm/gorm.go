// Package gorm is a stub of gorm.io/gorm.
package gorm

type Dialector interface{ Name() string }

type Option interface{}

type DB struct{ Statement *Statement }

// Statement is not a pool: it is one query being built.
type Statement struct{ Table string }

func Open(dialector Dialector, opts ...Option) (*DB, error) { return &DB{}, nil }

func (db *DB) Find(dest interface{}, conds ...interface{}) *DB { return db }
func (db *DB) Create(value interface{}) *DB                    { return db }
