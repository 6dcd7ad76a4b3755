// Package zestylike wraps gorplike behind interfaces, as zesty wraps
// go-gorp: the wait is two interfaces down.
package zestylike

import "example.org/gorplike"

type DB interface {
	Begin() (*gorplike.Transaction, error)
}

type DBProvider interface {
	Tx() error
	Commit() error
}

type provider struct {
	db DB
	tx *gorplike.Transaction
}

func (p *provider) Tx() error {
	tx, err := p.db.Begin()
	p.tx = tx
	return err
}

func (p *provider) Commit() error { return nil }

func NewDBProvider(db DB) DBProvider { return &provider{db: db} }
