// Package infernone is inferdirect with lanes.infer: false in its // want package:`lanes\(\)`
// .bhlint.yml: silent.
package infernone

import (
	"database/sql"
	"net/http"
	"time"
)

var db *sql.DB

// reportDB is the background work's own pool: not shared.
var reportDB *sql.DB

func open() {
	db, _ = sql.Open("postgres", "app")
	reportDB, _ = sql.Open("postgres", "reports")
}

func listFeeds(w http.ResponseWriter, r *http.Request) {
	db.Query("SELECT * FROM feeds")
}

func refreshLoop() {
	t := time.NewTicker(time.Minute)
	for range t.C {
		db.Exec("UPDATE feeds SET checked = now()")
	}
}

// exportLoop uses the reports pool only.
func exportLoop(jobs chan string) {
	for j := range jobs {
		reportDB.Exec("INSERT INTO exports VALUES ($1)", j)
	}
}

// audit runs once per request, in a goroutine of the request: it is part
// of the interactive work, not a background loop, even though it loops.
func audit(events chan string) {
	for e := range events {
		db.Exec("INSERT INTO audit VALUES ($1)", e)
	}
}

func withAudit(w http.ResponseWriter, r *http.Request) {
	events := make(chan string)
	go audit(events)
	events <- r.URL.Path
	close(events)
}

// warm runs once at start-up and returns: not a background loop.
func warm() {
	db.Exec("SELECT 1")
}

func Main() { // want Main:`reaches\(infernone\.db\(no lane\), infernone\.reportDB\(no lane\)\)` Main:`creates\(infernone\.db, infernone\.reportDB\)`
	open()
	http.HandleFunc("/feeds", listFeeds)
	http.HandleFunc("/audited", withAudit)
	go refreshLoop()
	go exportLoop(make(chan string))
	go warm()
}
