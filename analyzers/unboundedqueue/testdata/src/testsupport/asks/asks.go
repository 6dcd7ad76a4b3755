// Package asks imports testing only to ask testing.Testing(): production
// code that behaves differently under a test is still production code.
package asks

import (
	"database/sql"
	"testing"
)

var shared *sql.DB

func Open(dsn string) {
	if testing.Testing() {
		dsn += "?test=1"
	}
	shared, _ = sql.Open("pgx", dsn) // want `pool without a maximum: the \*sql.DB from sql.Open is stored in shared`
}
