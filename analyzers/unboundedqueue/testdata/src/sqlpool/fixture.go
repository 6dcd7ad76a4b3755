package sqlpool

import (
	"database/sql"
	"testing"
)

// Trap, after openfga's test fixtures (a helper for tests in a production
// package, not a _test.go file): a function that takes a testing.TB sets up
// one test. The package's other files do not import testing, so they are
// still checked.
func RunTestDatabase(t testing.TB, dsn string) *Store {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return &Store{db: db}
}
