// Package gorm is a user package named like gorm: its DB is not a pool
// the catalogue knows.
package gorm

type DB struct{}

func Open() *DB                      { return &DB{} }
func (d *DB) Find(v interface{}) *DB { return d }
