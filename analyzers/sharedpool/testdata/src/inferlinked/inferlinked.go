// Package inferlinked serves tokens to requests and runs the job queue in // want package:`lanes\(\(\*jobs\.Queue\)\.Run@background, \(\*jobs\.Metrics\)\.Run@background, func literal in inferlinked\.Serve@interactive\)`
// the background: the handlers reach tokens.Store.db, the queue
// jobs.Queue.db, and both hold the pool app.New opened once.
package inferlinked

import (
	"net/http"

	"inferlinked/app"
)

func Serve() { // want Serve:`reaches\(jobs\.Metrics\.db\(no lane\), jobs\.Queue\.db\(no lane\), tokens\.Store\.db\(no lane\)\)` Serve:`creates\(jobs\.Metrics\.db, jobs\.Queue\.db, tokens\.Store\.db\)`
	a := app.New("postgres://app") // want `^ERR_SHARED_FAILURE_DOMAIN_DETECTED: jobs.Queue.db, a database pool created once, serves both interactive and background work, and no lanes are declared: interactive by func literal in inferlinked.Serve → \(\*tokens.Store\).Find → tokens.Store.db`
	go a.Queue.Run()
	go a.Metrics.Run()
	http.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) { a.Tokens.Find(r.URL.Query().Get("id")) })
	http.ListenAndServe(":8080", nil)
}
