// Package store is the bottom of a chain of packages (chain/l1 to l4)
// that TestFactsLinear analyses: the pool, and an interface with one
// implementation that reaches it and one that does not.
package store

import "database/sql"

var DB *sql.DB

type Store interface{ Get(k string) string }

type dbStore struct{}

func (dbStore) Get(k string) string {
	var v string
	DB.QueryRow("SELECT v FROM t WHERE k = $1", k).Scan(&v)
	return v
}

type memStore struct{ m map[string]string }

func (s *memStore) Get(k string) string { return s.m[k] }
