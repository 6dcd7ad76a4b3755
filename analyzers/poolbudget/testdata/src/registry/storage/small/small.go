// want package:`registries\(registry/storage.providers ← small.newProvider \[db sql.Open 2 dsn \$DATABASE_URL\]\)`

// Package small registers a backend whose pool has a constant maximum of 2.
package small

import (
	"database/sql"
	"os"

	"registry/storage"
)

func init() { storage.Register("small", newProvider) }

type provider struct{ db *sql.DB }

func (p *provider) Close() error { return p.db.Close() }

func newProvider(string) (storage.Provider, error) { // want newProvider:`createsPools\(db sql.Open 2 dsn \$DATABASE_URL\)`
	db, err := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(2)
	return &provider{db: db}, nil
}
