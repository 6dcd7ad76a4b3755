// Package gorm is a stub of gorm.io/gorm with the declarations the cases use.
package gorm

import "database/sql"

type DB struct {
	Error error
	sqlDB *sql.DB
}

func Open(dsn string) (*DB, error)                                             { return &DB{}, nil }
func (db *DB) Begin(opts ...*sql.TxOptions) *DB                                { return db }
func (db *DB) Commit() *DB                                                     { return db }
func (db *DB) Rollback() *DB                                                   { return db }
func (db *DB) Create(v any) *DB                                                { return db }
func (db *DB) Where(q any, args ...any) *DB                                    { return db }
func (db *DB) First(v any, conds ...any) *DB                                   { return db }
func (db *DB) Transaction(fc func(tx *DB) error, opts ...*sql.TxOptions) error { return fc(db) }

func (db *DB) Model(v any) *DB                        { return db }
func (db *DB) Updates(v any) *DB                      { return db.First(v) }
func (db *DB) Association(column string) *Association { return &Association{DB: db} }

// Association runs its statements on the handle it was made from.
type Association struct {
	DB *DB
}

func (a *Association) Replace(values ...any) error { return a.DB.Updates(values).Error }
