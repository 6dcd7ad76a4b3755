// Package inferfields hands its pool to a constructor that keeps it in a // want package:`lanes\(\(\*inferfields\.Server\)\.getUser@interactive, \(\*inferfields\.Server\)\.purgeLoop@background, \(\*inferfields\.Server\)\.metricsLoop@background\)`
// struct field; handlers and the purge loop are methods.
package inferfields

import (
	"database/sql"
	"net/http"
	"time"
)

type Server struct {
	db      *sql.DB
	metrics *sql.DB // the background work's own pool
}

func NewServer(db, metrics *sql.DB) *Server { return &Server{db: db, metrics: metrics} } // want NewServer:`storesParam\(inferfields\.Server\.db, inferfields\.Server\.metrics\)`

func (s *Server) getUser(w http.ResponseWriter, r *http.Request) {
	s.lookup(r.URL.Query().Get("id"))
}

func (s *Server) lookup(id string) { s.db.QueryRow("SELECT * FROM users WHERE id = $1", id) }

func (s *Server) purgeLoop() {
	for {
		time.Sleep(time.Hour)
		s.db.Exec("DELETE FROM sessions WHERE expires < now()")
	}
}

func (s *Server) metricsLoop() {
	for {
		time.Sleep(time.Minute)
		s.metrics.Exec("INSERT INTO samples VALUES (1)")
	}
}

func Run() { // want Run:`creates\(inferfields\.Server\.db, inferfields\.Server\.metrics\)` Run:`reaches\(inferfields\.Server\.db\(no lane\), inferfields\.Server\.metrics\(no lane\)\)`
	db, _ := sql.Open("postgres", "app") // want `inferfields.Server.db, a database pool created once, serves both interactive and background work`
	metrics, _ := sql.Open("postgres", "metrics")
	s := NewServer(db, metrics)
	mux := http.NewServeMux()
	mux.HandleFunc("/user", s.getUser)
	go s.purgeLoop()
	go s.metricsLoop()
	http.ListenAndServe(":8080", mux)
}
