// Package infersqlx prepares *sqlx.Stmt on two pools: the handlers run // want package:`lanes\(\(\*infersqlx\.Store\)\.item@interactive, \(\*infersqlx\.Store\)\.jobLoop@background\)`
// statements of the request pool, the loop those of its own pool. Both
// kinds run through the *sql.Stmt a *sqlx.Stmt embeds, a field of the
// library that is no resource of its own: nothing is shared.
package infersqlx

import (
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"
)

type Store struct {
	db      *sqlx.DB
	getItem *sqlx.Stmt
	jobs    *sqlx.DB
	nextJob *sqlx.Stmt
}

func NewStore() *Store { // want NewStore:`reaches\(infersqlx\.Store\.db\(no lane\), infersqlx\.Store\.jobs\(no lane\)\)` NewStore:`creates\(infersqlx\.Store\.db, infersqlx\.Store\.jobs\)`
	s := &Store{}
	s.db, _ = sqlx.Connect("postgres", "app")
	s.jobs, _ = sqlx.Connect("postgres", "jobs")
	s.getItem, _ = s.db.Preparex("SELECT * FROM items WHERE id = $1")
	s.nextJob, _ = s.jobs.Preparex("SELECT * FROM jobs LIMIT 1")
	return s
}

func (s *Store) item(w http.ResponseWriter, r *http.Request) {
	var v string
	s.getItem.Get(&v, 1)
	s.getItem.Exec()
}

func (s *Store) jobLoop() {
	for range time.Tick(time.Second) {
		var v string
		s.nextJob.Get(&v)
		s.nextJob.Exec()
	}
}

func Main() { // want Main:`reaches\(infersqlx\.Store\.db\(no lane\), infersqlx\.Store\.jobs\(no lane\), infersqlx\.Store\.nextJob\(no lane\)\)` Main:`creates\(infersqlx\.Store\.db, infersqlx\.Store\.jobs\)`
	s := NewStore()
	http.HandleFunc("/item", s.item)
	go s.jobLoop()
}
