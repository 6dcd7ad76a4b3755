// Package infergormio keeps its pool in a gorm.io handle. // want package:`lanes\(\(\*infergormio\.Store\)\.list@interactive, \(\*infergormio\.Store\)\.cleanup@background\)`
package infergormio

import (
	"net/http"
	"time"

	"gorm.io/gorm"

	fake "lookalike/gorm"
)

type sqlite struct{}

func (sqlite) Name() string { return "sqlite" }

type Store struct {
	db *gorm.DB
	// stmt is one query being built, not a pool: never reported.
	stmt *gorm.Statement
	// cache is a user type named gorm.DB in another package: not a pool.
	cache *fake.DB
}

func Open() *Store { // want Open:`creates\(infergormio\.Store\.db\)`
	db, _ := gorm.Open(sqlite{}) // want `infergormio.Store.db, a database pool created once, serves both interactive and background work`
	return &Store{db: db, stmt: db.Statement, cache: fake.Open()}
}

func (s *Store) list(w http.ResponseWriter, r *http.Request) {
	var rows []string
	s.db.Find(&rows)
	_ = s.stmt.Table
	s.cache.Find(&rows)
}

func (s *Store) cleanup() {
	for range time.Tick(time.Hour) {
		s.db.Create("x")
		_ = s.stmt.Table
		s.cache.Find(nil)
	}
}

func Main() { // want Main:`reaches\(infergormio\.Store\.db\(no lane\)\)` Main:`creates\(infergormio\.Store\.db\)`
	s := Open()
	http.HandleFunc("/rows", s.list)
	go s.cleanup()
}
