// Package inferfieldstore opens its pool into a field of a value it keeps
// in a package-level container.
package inferfieldstore

import "xorm.io/xorm"

type Database struct {
	engine *xorm.Engine
}

type container struct{ DB *Database }

var Container = &container{}

// Initialize fills the container: the program calls it once.
func Initialize() { // want Initialize:`creates\(inferfieldstore\.Database\.engine\)`
	Container.DB = NewDatabase("app")
}

// NewDatabase opens a new pool on every call.
func NewDatabase(dsn string) *Database { // want NewDatabase:`creates\(inferfieldstore\.Database\.engine\)`
	e, _ := xorm.NewEngine("mysql", dsn)
	return &Database{engine: e}
}

func (d *Database) Query() { // want Query:`reaches\(inferfieldstore\.Database\.engine\(no lane\)\)`
	d.engine.Exec("SELECT 1")
}
