package testsupport

import (
	"database/sql"
	"net/http"
)

// Production code in the same package, in a file that does not import
// testing and with no test in reach: reported.

type server struct {
	dsn   string
	store *Store
}

func (s *server) connect() {
	db, _ := sql.Open("pgx", s.dsn) // want `pool without a maximum: the \*sql.DB from sql.Open is stored in a struct`
	s.store = &Store{db: db}
}

func Serve(dsn string) { // want Serve:"servesConns"
	s := &server{dsn: dsn}
	s.connect()
	http.ListenAndServe(":8080", nil)
}
