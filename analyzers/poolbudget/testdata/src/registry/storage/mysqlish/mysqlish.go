// want package:`flagNames\(-max_conns=0\)` package:`registries\(registry/storage.providers ← mysqlish.newProvider \[db sql.Open unbounded \(the default of flag -max_conns\) via mysqlish.open dsn \$DATABASE_URL global registry/storage/mysqlish.shared\]\)`

// Package mysqlish registers a backend whose pool has a maximum only when
// a flag asks for one, and the flag's default does not.
package mysqlish

import (
	"database/sql"
	"flag"
	"os"

	"registry/storage"
)

var maxConns = flag.Int("max_conns", 0, "maximum connections to the database (0: no maximum)")

var shared *sql.DB

func init() { storage.Register("mysql", newProvider) }

type provider struct{ db *sql.DB }

func (p *provider) Close() error { return p.db.Close() }

func newProvider(string) (storage.Provider, error) { // want newProvider:`createsPools\(db sql.Open unbounded \(the default of flag -max_conns\) via mysqlish.open dsn \$DATABASE_URL global registry/storage/mysqlish.shared\)`
	db, err := open()
	if err != nil {
		return nil, err
	}
	return &provider{db: db}, nil
}

func open() (*sql.DB, error) { // want open:`createsPools\(db sql.Open unbounded \(the default of flag -max_conns\) dsn \$DATABASE_URL returned 0 global registry/storage/mysqlish.shared\)`
	if shared != nil {
		return shared, nil
	}
	db, err := sql.Open("mysql", os.Getenv("DATABASE_URL"))
	if err != nil {
		return nil, err
	}
	if *maxConns > 0 {
		db.SetMaxOpenConns(*maxConns)
	}
	shared = db
	return db, nil
}
