// Package dbx is a stub of github.com/pocketbase/dbx.
package dbx

import "database/sql"

type Query struct{}

func (q *Query) Execute() (sql.Result, error) { return nil, nil }

type Builder interface {
	NewQuery(sql string) *Query
}

type DB struct{ sqlDB *sql.DB }

func Open(driverName, dsn string) (*DB, error)       { return &DB{}, nil }
func NewFromDB(sqlDB *sql.DB, driverName string) *DB { return &DB{sqlDB: sqlDB} }

func (db *DB) NewQuery(sql string) *Query { return &Query{} }

// Params is not a pool: query parameters.
type Params map[string]interface{}
