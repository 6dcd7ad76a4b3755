// want package:`registries\(registry/lit.backends ← lit.openPG \[db sql.Open 5 dsn \$DATABASE_URL returned 0\]; registry/lit.backends ← lit.openLite\)`

// Package lit keeps its constructors in a map literal.
package lit

import (
	"database/sql"
	"os"
)

var backends = map[string]func() (*sql.DB, error){
	"postgres": openPG,
	"sqlite":   openLite,
}

func openPG() (*sql.DB, error) { // want openPG:`createsPools\(db sql.Open 5 dsn \$DATABASE_URL returned 0\)`
	db, err := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(5)
	return db, nil
}

func openLite() (*sql.DB, error) { return sql.Open("sqlite3", "app.db") }

// Open opens the backend named by driver.
func Open(driver string) (*sql.DB, error) { // want Open:`createsPools\(calls through registry/lit.backends\)`
	return backends[driver]()
}
