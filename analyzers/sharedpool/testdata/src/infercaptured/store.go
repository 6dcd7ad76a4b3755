// Package infercaptured opens its pool into a local variable that the // want package:`lanes\(\)`
// migration closures capture (so it lives in memory, not in a register),
// then keeps it in a field of the value it returns, as headscale's
// NewHeadscaleDatabase does.
package infercaptured

import "gorm.io/gorm"

type sqlite struct{}

func (sqlite) Name() string { return "sqlite" }

type Database struct{ DB *gorm.DB }

func open() (*gorm.DB, error) { return gorm.Open(sqlite{}) }

// New opens the pool once and keeps it.
func New() (*Database, error) { // want New:`creates\(infercaptured\.Database\.DB\)`
	conn, err := open()
	if err != nil {
		return nil, err
	}
	migrate := func() { conn.Create(struct{}{}) }
	migrate()
	d := Database{DB: conn}
	return &d, nil
}

// Reopen writes its local twice: which pool the field gets is not one
// call's result, so no call creates it.
func Reopen(retry bool) *Database {
	conn, _ := open()
	check := func() { conn.Find(nil) }
	check()
	if retry {
		conn, _ = open()
	}
	d := Database{DB: conn}
	return &d
}

func (d *Database) List() { // want List:`reaches\(infercaptured\.Database\.DB\(no lane\)\)`
	d.DB.Find(nil)
}
