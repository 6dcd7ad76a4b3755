// Package containers mixes test support and production code, as
// tracetest's testmock does: this file starts a throw-away PostgreSQL in a
// container for tests (through a test-container library) and opens it;
// nothing here is reported, whatever the package's other files are.
package containers

import (
	"database/sql"

	"github.com/orlangure/gnomock"
)

type testDatabase struct {
	container *gnomock.Container
	db        *sql.DB
}

// startTestDatabase keeps a pool without a maximum: silent, test support.
func startTestDatabase() (*testDatabase, error) {
	c, err := gnomock.Start(nil)
	if err != nil {
		return nil, err
	}
	db, err := sql.Open("pgx", c.Host)
	if err != nil {
		return nil, err
	}
	return &testDatabase{container: c, db: db}, nil
}
