package containers

import "database/sql"

var appDB *sql.DB

// OpenApp is in a file that uses no test library: production code,
// reported.
func OpenApp(dsn string) {
	appDB, _ = sql.Open("pgx", dsn) // want `sql.Open`
}

// Testing builds the app on the test database.
func Testing() error {
	_, err := startTestDatabase()
	return err
}
