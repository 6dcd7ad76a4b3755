// Package inferstandin wires the database backend of an interface whose // want package:`lanes\(gc\.Run@background, \(\*servers\.Server\)\.ServeHTTP@interactive\)`
// package keeps a no-op beside it into the handlers and the background
// collector: the calls the handlers' and the collector's packages make
// through the interface are carried to here, where the backend is
// visible, and the pool is shared. Trap: the reads' pool, behind an
// interface with a no-op beside it too, serves only the handlers: silent.
package inferstandin

import (
	"database/sql"
	"net/http"

	"inferstandin/gc"
	"inferstandin/servers"
	"inferstandin/storage/pg"
)

func Main() { // want Main:`creates\(pg\.Reader\.DB, pg\.Writer\.DB\)` Main:`reaches\(via \(storage\.Writer\)\.Write\)`
	db, _ := sql.Open("postgres", "app") // want `pg.Writer.DB, a database pool created once, serves both interactive and background work`
	w := &pg.Writer{DB: db}
	reads, _ := sql.Open("postgres", "app-reads")
	go gc.Run(w)
	http.ListenAndServe(":8080", &servers.Server{W: w, R: &pg.Reader{DB: reads}})
}
