// Package gorm is a stub of gorm.io/gorm with the declarations the tests use.
package gorm

import (
	"context"

	"gorm.io/gorm/clause"
)

type DB struct{ Error error }

func (db *DB) Clauses(conds ...clause.Expression) *DB           { return db }
func (db *DB) Order(value interface{}) *DB                      { return db }
func (db *DB) Where(query interface{}, args ...interface{}) *DB { return db }
func (db *DB) Model(value interface{}) *DB                      { return db }
func (db *DB) Table(name string, args ...interface{}) *DB       { return db }
func (db *DB) First(dest interface{}, conds ...interface{}) *DB { return db }
func (db *DB) Find(dest interface{}, conds ...interface{}) *DB  { return db }
func (db *DB) Limit(limit int) *DB                              { return db }
func (db *DB) WithContext(ctx context.Context) *DB              { return db }

func (db *DB) Scopes(funcs ...func(*DB) *DB) *DB       { return db }
func (db *DB) Transaction(fc func(tx *DB) error) error { return fc(db) }

func (db *DB) Update(column string, value interface{}) *DB { return db }
func (db *DB) Updates(values interface{}) *DB              { return db }
