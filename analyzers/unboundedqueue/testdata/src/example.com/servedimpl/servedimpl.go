// Package servedimpl implements servedapi's interface: CreateItem runs once per request. // want package:"limitsPools" package:`noContextWaitsReported\(1\)`
// No handler of its own reaches it.
package servedimpl

import (
	"database/sql"

	"example.com/servedapi"
)

type service struct{ db *sql.DB }

var _ servedapi.Servicer = (*service)(nil)

func New(dsn string) (servedapi.Servicer, error) {
	db, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(10)
	return &service{db: db}, nil
}

// CreateItem runs per request: servedapi's handler calls it through the
// interface.
func (s *service) CreateItem(name string) error { return s.insert(name) } // want CreateItem:"waitsOnNetwork" CreateItem:`waitsNoContext\(\(\*sql.DB\).Exec in \(service\).insert\)`

// insert waits for a connection with no context.
func (s *service) insert(name string) error { // want insert:"waitsOnNetwork" insert:`waitsNoContext\(\(\*sql.DB\).Exec in \(service\).insert\)`
	_, err := s.db.Exec("INSERT INTO items(name) VALUES ($1)", name) // want `wait with no deadline: \(\*sql.DB\).Exec waits for a pool slot with no context in \(service\).insert, which is handed none, and a request reaches it \(\(\*service\).CreateItem\)`
	return err
}

// Reindex waits the same way, but only servedapi's background loop calls
// it. Silent.
func (s *service) Reindex() error { return s.reindex() } // want Reindex:"waitsOnNetwork" Reindex:`waitsNoContext\(\(\*sql.DB\).Exec in \(service\).reindex\)`

func (s *service) reindex() error { // want reindex:"waitsOnNetwork" reindex:`waitsNoContext\(\(\*sql.DB\).Exec in \(service\).reindex\)`
	_, err := s.db.Exec("REINDEX TABLE items")
	return err
}
