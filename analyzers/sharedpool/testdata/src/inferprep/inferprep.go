// Package inferprep prepares statements on its pools into fields: the one // want package:`lanes\(\(\*inferprep\.Store\)\.items@interactive, \(\*inferprep\.Store\)\.statsLoop@background\)`
// prepared on the request pool and run by the loop shares that pool; the
// one prepared on the loop's own pool does not.
package inferprep

import (
	"database/sql"
	"net/http"
	"time"
)

type Store struct {
	db      *sql.DB
	count   *sql.Stmt
	reports *sql.DB
	// archive is prepared on the background's own pool: not shared.
	archive *sql.Stmt
}

func NewStore() *Store { // want NewStore:`reaches\(inferprep\.Store\.db\(no lane\), inferprep\.Store\.reports\(no lane\)\)` NewStore:`creates\(inferprep\.Store\.db, inferprep\.Store\.reports\)`
	s := &Store{}
	s.db, _ = sql.Open("postgres", "app") // want `inferprep.Store.db, a database pool created once, serves both interactive and background work`
	s.reports, _ = sql.Open("postgres", "reports")
	s.count, _ = s.db.Prepare("SELECT count(*) FROM items")
	s.archive, _ = s.reports.Prepare("INSERT INTO archive SELECT * FROM items")
	return s
}

func (s *Store) items(w http.ResponseWriter, r *http.Request) {
	s.db.Query("SELECT * FROM items")
}

func (s *Store) statsLoop() {
	for range time.Tick(time.Minute) {
		s.count.QueryRow()
		s.archive.Exec()
		s.reports.Exec("VACUUM")
	}
}

func Main() { // want Main:`reaches\(inferprep\.Store\.archive\(no lane\), inferprep\.Store\.count\(no lane\), inferprep\.Store\.db\(no lane\), inferprep\.Store\.reports\(no lane\)\)` Main:`creates\(inferprep\.Store\.db, inferprep\.Store\.reports\)`
	s := NewStore()
	http.HandleFunc("/items", s.items)
	go s.statsLoop()
}
