package testsupport

import (
	"database/sql"
	"testing"
)

// This file imports testing only for the types of its parameters and
// fields: a file of test helpers too.

type Store struct{ db *sql.DB }

// apiContext is a harness's shared state: it holds the test.
type apiContext struct {
	t   testing.TB
	dsn string
}

// device reaches the test through an embedded struct.
type device struct {
	*apiContext
	store *Store
}

// connect is a harness method (its receiver holds a testing.TB through an
// embedded field): silent.
func (d *device) connect() {
	db, _ := sql.Open("pgx", d.dsn)
	d.store = &Store{db: db}
}

// openFor takes the test as a parameter: silent.
func openFor(t *testing.T, dsn string) *Store {
	t.Helper()
	db, _ := sql.Open("pgx", dsn)
	return &Store{db: db}
}
