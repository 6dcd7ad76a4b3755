// Package inferstmtoptstwo hands each manager a pool of its own: the // want package:`lanes\(func literal in inferstmtoptstwo\.Main@interactive, \(\*media\.Manager\)\.CleanLoop@background\)`
// handlers run the statements prepared on one, the cleaner those prepared
// on the other. The statements are linked to a field that each call of
// the constructor fills anew, so nothing is one pool: silent.
package inferstmtoptstwo

import (
	"net/http"

	"github.com/jmoiron/sqlx"

	"inferstmtopts/media"
)

func Main() { // want Main:`reaches\(media\.Opts\.DB\(no lane\), media\.queries\.Delete\(no lane\), media\.queries\.Get\(no lane\)\)`
	db, _ := sqlx.Connect("postgres", "app")
	jobs, _ := sqlx.Connect("postgres", "jobs")
	m, _ := media.New(media.Opts{DB: db})
	cleaner, _ := media.New(media.Opts{DB: jobs})
	http.HandleFunc("/media", func(w http.ResponseWriter, r *http.Request) { m.Upload(1) })
	go cleaner.CleanLoop()
}
