// want package:`registries\(registry/storage.providers ← memory.newProvider\)`

// Package memory registers a backend in the process: a SQLite file holds
// no server's connections, so it is no alternative to the server backends.
package memory

import (
	"database/sql"

	"registry/storage"
)

func init() { storage.Register("memory", newProvider) }

type provider struct{ db *sql.DB }

func (p *provider) Close() error { return p.db.Close() }

func newProvider(string) (storage.Provider, error) {
	db, err := sql.Open("sqlite3", ":memory:")
	return &provider{db: db}, err
}
