// Package store opens the service's pools: its constructors are followed
// from main through facts.
package store

import (
	"database/sql"
	"os"
	"sync"
)

// Open opens a pool with the budget its caller gives.
func Open(dsn string, max int) (*sql.DB, error) { // want Open:`createsPools\(db sql.Open param 1 returned 0\)`
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(max)
	return db, nil
}

// OpenRaw returns a pool whose caller must bound it.
func OpenRaw(dsn string) (*sql.DB, error) { // want OpenRaw:`createsPools\(sql.Open sql.Open unbounded returned 0\)`
	return sql.Open("pgx", dsn)
}

// Configure bounds the pool passed to it, through a helper.
func Configure(db *sql.DB) { limit(db) } // want Configure:`createsPools\(bounds param 0 to 10\)`

func limit(db *sql.DB) { db.SetMaxOpenConns(10) } // want limit:`createsPools\(bounds param 0 to 10\)`

// Store keeps its pool in a field.
type Store struct{ db *sql.DB }

// New opens and keeps a pool of 25.
func New() *Store { // want New:`createsPools\(db sql.Open 25 dsn \$DATABASE_URL\)`
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(25)
	return &Store{db: db}
}

// FromConfig takes its budget from configuration: not a constant.
func FromConfig(max int) *Store { // want FromConfig:`createsPools\(db sql.Open param 0 dsn \$DATABASE_URL\)`
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	db.SetMaxOpenConns(max)
	return &Store{db: db}
}

// NeverCalled opens a pool no main reaches.
func NeverCalled() *Store { // want NeverCalled:`createsPools\(db sql.Open 500\)`
	db, _ := sql.Open("pgx", "")
	db.SetMaxOpenConns(500)
	return &Store{db: db}
}

var shared *sql.DB

// Setup opens the package's pool into a package-level variable and bounds
// it there.
func Setup() error { // want Setup:`createsPools\(shared sql.Open 1 dsn \$DATABASE_URL global budget/store.shared\)`
	var err error
	shared, err = sql.Open("pgx", os.Getenv("DATABASE_URL"))
	shared.SetMaxOpenConns(1)
	return err
}

var (
	lazy     *sql.DB
	lazyOnce sync.Once
)

// Lazy opens the package's one pool on first use: however many calls
// reach it, it is one pool.
func Lazy() *sql.DB { // want Lazy:`createsPools\(lazy sql.Open 4 dsn \$DATABASE_URL returned 0 global budget/store.lazy\)`
	lazyOnce.Do(func() {
		lazy, _ = sql.Open("pgx", os.Getenv("DATABASE_URL"))
		lazy.SetMaxOpenConns(4)
	})
	return lazy
}

// Configured keeps a pool that its Configure method bounds later, through
// the field: not unbounded, but not a known budget either.
type Configured struct{ pool *sql.DB }

func NewConfigured() *Configured { // want NewConfigured:`createsPools\(db sql.Open unknown dsn \$DATABASE_URL\)`
	db, _ := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	return &Configured{pool: db}
}

func (c *Configured) Configure(n int) { c.pool.SetMaxOpenConns(n) }
