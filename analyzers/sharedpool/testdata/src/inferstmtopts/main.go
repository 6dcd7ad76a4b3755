// Package inferstmtopts opens one pool and hands it to managers whose // want package:`lanes\(func literal in inferstmtopts\.Main@interactive, func literal in inferstmtopts\.Main@interactive, func literal in inferstmtopts\.Main@background\)`
// statements are prepared on it in other packages, one through its
// options, one as a parameter: the handlers run the statements of both,
// the inbox poller those of the second, so they share the pool opened
// here, which is where the finding belongs.
package inferstmtopts

import (
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"

	"inferstmtopts/inbox"
	"inferstmtopts/media"
)

func Main() { // want Main:`creates\(inbox\.queries\.GetInbox, media\.Opts\.DB\)` Main:`reaches\(inbox\.queries\.GetInbox\(no lane\), media\.Opts\.DB\(no lane\), media\.queries\.Delete\(no lane\), media\.queries\.Get\(no lane\)\)`
	db, _ := sqlx.Connect("postgres", "app") // want `media.Opts.DB, a database pool created once, serves both interactive and background work`
	m, _ := media.New(media.Opts{DB: db})
	in, _ := inbox.New(db)
	http.HandleFunc("/media", func(w http.ResponseWriter, r *http.Request) { m.Upload(1) })
	http.HandleFunc("/inbox", func(w http.ResponseWriter, r *http.Request) { in.Get(1) })
	go func() {
		for range time.Tick(time.Minute) {
			in.Get(0)
		}
	}()
}
