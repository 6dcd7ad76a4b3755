// Package testdb is a package of test helpers outside the _test.go files:
// every file of it imports testing. It runs inside a test binary, one test
// at a time, under the test's -timeout, with no request traffic behind it:
// nothing here is reported (the same code in a production package is; see
// package testsupport).
package testdb

import (
	"database/sql"
	"testing"
)

var shared *sql.DB

// newEmptyDB is a test helper in a file that imports testing: silent,
// though it keeps a pool without a maximum.
func newEmptyDB(dsn string) *sql.DB {
	shared, _ = sql.Open("pgx", dsn)
	return shared
}

// SkipWithoutDB makes this file a file of test helpers.
func SkipWithoutDB(t *testing.T, dsn string) {
	t.Helper()
	if newEmptyDB(dsn) == nil {
		t.Skip("no database")
	}
}
